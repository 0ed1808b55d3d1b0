/**
 * Admission of client agents (app/server/env-serve/admission.ts): the rules on reference
 * strings, and through a real env server the attacks of issue 23 — a client's module path,
 * `llm:` spec and checkpoint path are refused with 422 and nothing is loaded, no request or
 * environment variable leaves the process, and no file contents or server paths come back.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legalNamesOf, startMockOpenAI, type MockOpenAI } from '../../../agents/llm/mock-server';
import { createRegistry } from '../../../app/catalog';
import { AdmissionError, admissionOf, admitAgents, admits, describeAllowed } from '../../../app/server/env-serve/admission';
import { startEnvServer, type EnvServer, type EnvServerOptions } from '../../../app/server/env-serve/env-server';

describe('the rules', () => {
  test('admissionOf: the operator defaults, then --client-agents, without empties or repeats', () => {
    expect(admissionOf(['fair-split'], ['random', 'fair-split', '', 'random']).allowed).toEqual(['fair-split', 'random']);
    expect(admissionOf(['', 'a']).allowed).toEqual(['a']);
    expect(admissionOf([]).allowed).toEqual([]);
  });

  test('admits: exact strings only', () => {
    const a = admissionOf(['random', 'llm:{"model":"m"}']);
    expect(admits(a, 'random')).toBe(true);
    expect(admits(a, 'llm:{"model":"m"}')).toBe(true);
    for (const bad of ['Random', 'random ', ' random', 'random:{}', 'llm:{"model": "m"}', 'llm', './random.js', '', 'rand']) expect(admits(a, bad)).toBe(false);
    for (const notText of [undefined, null, 1, ['random'], { toString: () => 'random' }]) expect(admits(a, notText)).toBe(false);
  });

  test('admitAgents: every entry or none; the error names the entry and the allowed references, not the refused text', () => {
    const a = admissionOf(['fair-split'], ['random']);
    const asked = ['random', 'fair-split'];
    const ok = admitAgents(a, asked);
    expect(ok).toEqual(asked);
    expect(ok).not.toBe(asked);
    let err: unknown;
    try {
      admitAgents(a, ['random', 'fair-split', '/etc/passwd.js']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AdmissionError);
    const e = err as AdmissionError;
    expect(e.name).toBe('AdmissionError');
    expect(e.field).toBe('agents.2');
    expect(e.problem).toBe('not an agent this server lets clients choose (allowed: fair-split, random); its operator adds more with --client-agents');
    expect(e.message).toBe(`agents.2: ${e.problem}`);
    expect(e.message).not.toContain('passwd');
    expect(() => admitAgents(a, ['x'])).toThrow(/^agents\.0: /);
    expect(admitAgents(a, [])).toEqual([]);
  });

  test('describeAllowed quotes references that hold commas, braces, spaces or quotes', () => {
    expect(describeAllowed(admissionOf([]))).toBe('none');
    expect(describeAllowed(admissionOf(['a', 'b']))).toBe('a, b');
    expect(describeAllowed(admissionOf(['llm:{"model":"m"}', 'x y', 'p,q', 'plain']))).toBe('"llm:{\\"model\\":\\"m\\"}", "x y", "p,q", plain');
    expect(describeAllowed(admissionOf(['say"hi']))).toBe('"say\\"hi"');
    expect(describeAllowed(admissionOf(['a}']))).toBe('"a}"');
  });
});

describe('through the env server', () => {
  const registry = createRegistry();
  const dond = registry.env('deal-or-no-deal-v1');
  let dir: string;
  let marker: string;
  let mock: MockOpenAI;
  const SECRET = 'sk-never-leaves-7f3a';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-admission-'));
    marker = join(dir, 'pwned.txt');
    writeFileSync(join(dir, 'writes.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'loaded');\nmodule.exports = { agents: [{ name: 'w', create: () => ({ name: 'w', act: (o, l) => l[0] }) }] };\n`);
    writeFileSync(join(dir, 'exits.js'), `module.exports = { agents: [{ name: 'x', create: () => ({ name: 'x', act: () => process.exit(3) }) }] };\n`);
    writeFileSync(join(dir, 'broken.js'), `module.exports = { agents: [{ name: 'b', create: () => { throw new Error('cannot open ' + __filename + '\\nRequire stack:\\n- ' + __dirname + '/x.js'); } }] };\n`);
    process.env.ARENA_TEST_SECRET = SECRET;
    mock = await startMockOpenAI({ respond: (req) => ({ content: JSON.stringify({ action: legalNamesOf(req)[0] ?? 'agree' }) }) });
  });
  afterAll(async () => {
    delete process.env.ARENA_TEST_SECRET;
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function serve(o: Partial<EnvServerOptions> = {}): Promise<EnvServer> {
    return startEnvServer({ env: dond, params: dond.resolveParams({}), registry, agents: ['fair-split'], port: 0, ...o });
  }
  async function reset(server: EnvServer, body: unknown): Promise<{ status: number; text: string; json: Record<string, any> }> {
    const res = await fetch(server.url + '/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
  }
  const refused = (r: { status: number; json: Record<string, any> }, field = 'agents.0') => {
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: not an agent this server lets clients choose \\(allowed: fair-split, random\\)`));
    expect(r.json.detail).toEqual([{ loc: ['body', ...field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))], msg: expect.any(String), type: 'value_error' }]);
  };

  test("a client's module paths are refused and never loaded; the server's own agents still play", async () => {
    const server = await serve({ clientAgents: ['random'] });
    try {
      const file = join(dir, 'writes.js');
      for (const ref of [file, `${file}#w`, `${file}:{}`, './writes.js', 'writes.js', `file://${file}`]) refused(await reset(server, { agents: [ref] }));
      refused(await reset(server, { agents: ['random', file] }), 'agents.1');
      expect(existsSync(marker)).toBe(false);
      const exits = join(dir, 'exits.js');
      refused(await reset(server, { agents: [exits] }));
      const ok = await reset(server, { agents: ['random'] });
      expect(ok.status).toBe(200);
      expect(server.sessions()).toBe(1);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await server.close();
    }
  });

  test("a client's llm: spec is refused: its endpoint gets no request and no environment variable leaves", async () => {
    const operatorSpec = `llm:{"baseURL":"${mock.baseURL}","model":"m","apiKeyEnv":"ARENA_TEST_SECRET"}`;
    const server = await serve({ clientAgents: ['random'] });
    try {
      for (const spec of [operatorSpec, `llm:{"baseURL":"${mock.baseURL}","apiKeyEnv":"ARENA_TEST_SECRET"}`, 'llm']) {
        const r = await reset(server, { agents: [spec] });
        refused(r);
        expect(r.text).not.toContain(SECRET);
      }
      // a whole episode against the admitted agents: still no request reached the endpoint
      const ok = await reset(server, { agents: ['random'] });
      expect(ok.status).toBe(200);
      expect(mock.requests).toHaveLength(0);
      expect(mock.authorization).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  test('the same llm: spec listed by the operator is admitted (exact text only), and its key goes to that endpoint alone', async () => {
    const operatorSpec = `llm:{"baseURL":"${mock.baseURL}","model":"m","apiKeyEnv":"ARENA_TEST_SECRET"}`;
    const server = await serve({ clientAgents: [operatorSpec] });
    try {
      const variant = await reset(server, { agents: [operatorSpec.replace('"model":"m"', '"model":"n"')] });
      expect(variant.status).toBe(422);
      expect(variant.json.message).toMatch(/^agents\.0: not an agent this server lets clients choose \(allowed: fair-split, "llm:/);
      const r = await reset(server, { agents: [operatorSpec], seed: 1 });
      expect(r.status).toBe(200);
      const id = r.json.metadata.session_id as string;
      // no --deadline: the LLM seat answers (issue 28: "timeout must be an integer" before)
      const step = await fetch(server.url + '/step', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id: id, action: { value: r.json.observation.legal[0].action } }) });
      const out = (await step.json()) as Record<string, any>;
      expect(step.status).toBe(200);
      expect(out.metadata.faults).toBeUndefined();
      expect(mock.requests.length).toBeGreaterThanOrEqual(1);
      expect(new Set(mock.authorization)).toEqual(new Set([`Bearer ${SECRET}`]));
    } finally {
      await server.close();
      mock.requests.length = 0;
      mock.authorization.length = 0;
    }
  }, 60_000);

  test('a checkpoint path from a client is refused; no file contents or server paths in any answer', async () => {
    const broken = join(dir, 'broken.js');
    const missing = join(dir, 'missing.js');
    const server = await serve({ clientAgents: ['random', broken, missing] });
    try {
      for (const spec of ['neural:{"checkpoint":"/etc/passwd"}', 'neural:{"checkpoint":"/etc"}', 'neural']) {
        const r = await reset(server, { agents: [spec] });
        expect(r.status).toBe(422);
        expect(r.text).not.toMatch(/root:|passwd/);
      }
      // the operator's own agents may fail to build: the client sees one line, without paths or a require stack
      for (const spec of [broken, missing]) {
        const r = await reset(server, { agents: [spec] });
        expect(r.status).toBe(422);
        expect(r.json.message).toMatch(/^agents\.0: /);
        expect(r.text).not.toContain(dir);
        expect(r.text).not.toMatch(/Require stack|\\n/);
      }
    } finally {
      await server.close();
    }
  });
});
