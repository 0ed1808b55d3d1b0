import { AgentRefError, agentRefFiles, formatAgentRef, mapModulePath, parseAgentRef, replaceOptionValue, withDefaultOptions } from '../../src/core/agent-ref';

describe('parseAgentRef: one grammar, a kind for every reference', () => {
  test.each([
    ['random', { kind: 'registered', name: 'random' }],
    ['  greedy  ', { kind: 'registered', name: 'greedy' }],
    ['greedy:{"epsilon":0.1}', { kind: 'registered', name: 'greedy', options: { epsilon: 0.1 } }],
    ['llm:{"model":"m","baseURL":"http://x/v1"}', { kind: 'llm', name: 'llm', options: { model: 'm', baseURL: 'http://x/v1' } }],
    ['neural:{"checkpoint":"runs/a.json"}', { kind: 'neural', name: 'neural', options: { checkpoint: 'runs/a.json' } }],
    ['remote', { kind: 'remote', name: 'remote' }],
    ['remote:{"name":"bot-a"}', { kind: 'remote', name: 'remote', options: { name: 'bot-a' } }],
    ['human', { kind: 'human', name: 'human' }],
    ['./bots.js', { kind: 'module', name: '', path: './bots.js' }],
    ['./bots.js#sleepy', { kind: 'module', name: 'sleepy', path: './bots.js' }],
    ['/abs/bots.mjs#x:{"ms":5}', { kind: 'module', name: 'x', path: '/abs/bots.mjs', options: { ms: 5 } }],
    ['bots.cjs', { kind: 'module', name: '', path: 'bots.cjs' }],
    ['../up/bots.js:{"a":[1,{"b":"}"}]}', { kind: 'module', name: '', path: '../up/bots.js', options: { a: [1, { b: '}' }] } }],
  ])('%s', (text, ref) => {
    expect(parseAgentRef(text)).toEqual(ref);
  });

  test('a module exporting an agent named like a special kind is still a module', () => {
    expect(parseAgentRef('./x.js#llm').kind).toBe('module');
  });

  test.each([
    ['', /empty/],
    ['   ', /empty/],
    ['greedy:{oops', /agent "greedy": options are not valid JSON/],
    ['greedy:[1,2]', /registered name has no spaces or colons/],
    ['greedy:{"a":1}x', /options are not valid JSON/],
    ['greedy:null', /registered name has no spaces or colons/],
    [':{"a":1}', /the name comes before the options/],
    ['llm:foo', /registered name has no spaces or colons/],
    ['two words', /registered name has no spaces or colons/],
    ['random#x', /"#export" follows a module path/],
    ['./bots.js#', /name the export after "#"/],
  ])('refused: %j', (text, message) => {
    expect(() => parseAgentRef(text)).toThrow(AgentRefError);
    expect(() => parseAgentRef(text)).toThrow(message);
  });

  test('not a string: refused with its type, never a crash', () => {
    expect(() => parseAgentRef(42 as unknown as string)).toThrow(/expected a string, got number/);
  });
});

describe('formatAgentRef and the helpers', () => {
  test.each(['random', 'greedy:{"epsilon":0.1}', './bots.js', './bots.js#sleepy:{"ms":5}', 'neural:{"checkpoint":"a.json"}', 'remote:{"name":"x"}'])('round trip %s', (text) => {
    expect(formatAgentRef(parseAgentRef(text))).toBe(text);
    expect(parseAgentRef(formatAgentRef(parseAgentRef(text)))).toEqual(parseAgentRef(text));
  });

  test('agentRefFiles: the module and a neural checkpoint; nothing for names', () => {
    expect(agentRefFiles(parseAgentRef('./b.js#x'))).toEqual(['./b.js']);
    expect(agentRefFiles(parseAgentRef('neural:{"checkpoint":"c.json","mode":"sample"}'))).toEqual(['c.json']);
    expect(agentRefFiles(parseAgentRef('greedy:{"checkpoint":"c.json"}'))).toEqual([]);
    expect(agentRefFiles(parseAgentRef('random'))).toEqual([]);
  });

  test('mapModulePath changes module paths only', () => {
    const abs = (p: string) => `/cfg/${p.replace(/^\.\//, '')}`;
    expect(formatAgentRef(mapModulePath(parseAgentRef('./b.js#x:{"a":1}'), abs))).toBe('/cfg/b.js#x:{"a":1}');
    const named = parseAgentRef('random');
    expect(mapModulePath(named, abs)).toBe(named);
  });

  test('replaceOptionValue swaps a path inside the options (a cached checkpoint), leaving others', () => {
    const r = parseAgentRef('neural:{"checkpoint":"a.json","mode":"greedy"}');
    expect(formatAgentRef(replaceOptionValue(r, 'a.json', '/cache/abc'))).toBe('neural:{"checkpoint":"/cache/abc","mode":"greedy"}');
    expect(replaceOptionValue(r, 'b.json', '/cache/abc')).toBe(r);
    expect(replaceOptionValue(r, 'a.json', 'a.json')).toBe(r);
  });

  test('withDefaultOptions names a served seat only when it has no options', () => {
    expect(formatAgentRef(withDefaultOptions(parseAgentRef('human'), { name: 'p1' }))).toBe('human:{"name":"p1"}');
    expect(formatAgentRef(withDefaultOptions(parseAgentRef('human:{"name":"a"}'), { name: 'p1' }))).toBe('human:{"name":"a"}');
  });
});
