/**
 * The env-folder checklist of docs/env-authoring.md ("Adding a built-in env"), checked on every
 * folder of envs/: the files every env has under the same names, its one registration line in
 * envs/index.ts and its one registration object in its public index, its tests in
 * test/envs/<env>/, nothing of it left in agents/ or test/agents/, and a mutation area whose
 * files exist. Each problem names the env and the missing item; a planted layout shows that
 * the check fires.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { builtinEnvs } from '../../app/catalog';

const ROOT = resolve(__dirname, '../..');

/** What every env folder holds (paths relative to envs/<env>/), with what each is. */
const REQUIRED: readonly [path: string, what: string][] = [
  ['index.ts', 'the public index: re-exports and the one BuiltinEnv registration object'],
  ['env.ts', 'the definition'],
  ['config.ts', 'the env id, the params schema and the resolved config'],
  ['observe.ts', 'the one projection, observe(state, viewer)'],
  ['agents/index.ts', "the list of the env's baselines"],
  ['web/renderer.js', "the spectator page's renderer"],
  ['README.md', 'rules, params, observation, rewards, references'],
  ['stryker.json', 'its mutation-testing area'],
];

/** A concept every env has goes by one name: these are the other names it went by. */
const OTHER_NAMES: readonly [name: string, use: string][] = [
  ['observation.ts', 'observe.ts'],
  ['params.ts', 'config.ts'],
  ['phases.ts', 'flow.ts'],
  ['variants.ts', 'privacy.ts'],
];

const read = (file: string) => readFileSync(file, 'utf8');

/** `a/{b,c}.ts` -> `a/b.ts`, `a/c.ts` (one brace group, as the stryker.json files use them). */
const expandBraces = (p: string): string[] => {
  const m = /^(.*)\{([^}]*)\}(.*)$/.exec(p);
  return m ? m[2].split(',').map((alt) => `${m[1]}${alt}${m[3]}`) : [p];
};

/** The env folders of a checkout: the folders of envs/. */
const envFolders = (root: string) => readdirSync(join(root, 'envs')).filter((n) => statSync(join(root, 'envs', n)).isDirectory());

/** Every way `envs/<env>` of the checkout at `root` strays from the checklist, one line each naming the env and the item. */
function checklist(root: string, env: string): string[] {
  const dir = join(root, 'envs', env);
  const at = `envs/${env}`;
  const out: string[] = [];
  for (const [path, what] of REQUIRED) if (!existsSync(join(dir, path))) out.push(`${at}: missing ${path} (${what})`);
  for (const [name, use] of OTHER_NAMES) if (existsSync(join(dir, name))) out.push(`${at}: ${name} is named ${use} in every env folder`);

  // one line in envs/index.ts, naming the registration object the env's index exports
  const lines = read(join(root, 'envs', 'index.ts'))
    .split('\n')
    .filter((l) => l.includes(`'./${env}'`) || l.includes(`'./${env}/`));
  const line = lines.length === 1 ? /^export \{ (\w+) \} from '\.\/([\w-]+)';$/.exec(lines[0]) : null;
  if (!line || line[2] !== env) out.push(`${at}: not registered by one line "export { <name> } from './${env}';" in envs/index.ts (found ${lines.length} lines naming it)`);
  if (existsSync(join(dir, 'index.ts'))) {
    const objects = [...read(join(dir, 'index.ts')).matchAll(/^export const (\w+): BuiltinEnv\b/gm)].map((m) => m[1]);
    if (objects.length !== 1) out.push(`${at}: index.ts exports ${objects.length} BuiltinEnv objects (one: "export const <name>: BuiltinEnv = { env, agents }")`);
    else if (line && line[1] !== objects[0]) out.push(`${at}: envs/index.ts registers "${line[1]}" but index.ts exports "${objects[0]}"`);
  }
  if (existsSync(join(dir, 'env.ts')) && !/^export const \w+Env\b/m.test(read(join(dir, 'env.ts')))) out.push(`${at}: env.ts exports no definition ("export const <name>Env")`);

  // its tests in one folder, nothing of it elsewhere
  const tests = join(root, 'test', 'envs', env);
  if (!existsSync(tests) || !readdirSync(tests).some((n) => n.endsWith('.test.ts'))) out.push(`${at}: missing test/envs/${env}/ (its tests)`);
  if (existsSync(join(root, 'agents', env))) out.push(`${at}: agents/${env}/ lies outside the env's folder (its agents are ${at}/agents/)`);
  if (existsSync(join(root, 'test', 'agents', `${env}.test.ts`))) out.push(`${at}: test/agents/${env}.test.ts lies outside test/envs/${env}/`);

  // the mutation area names files that exist and tests of this env
  if (existsSync(join(dir, 'stryker.json'))) {
    const area = JSON.parse(read(join(dir, 'stryker.json'))) as { mutate?: string[]; jest?: { config?: { roots?: string[] } } };
    for (const pattern of (area.mutate ?? []).filter((p) => !p.startsWith('!') && !p.includes('*'))) {
      for (const file of expandBraces(pattern.replace(/:\d+-\d+$/, ''))) if (!existsSync(join(root, file))) out.push(`${at}: stryker.json mutates ${file}, which does not exist`);
    }
    if (!(area.mutate ?? []).length) out.push(`${at}: stryker.json mutates nothing`);
    const roots = area.jest?.config?.roots ?? [];
    if (!roots.length || roots.some((r) => r !== `<rootDir>/test/envs/${env}`)) out.push(`${at}: stryker.json's jest roots are not <rootDir>/test/envs/${env} (got ${JSON.stringify(roots)})`);
  }
  return out;
}

describe('env folders: every folder of envs/ follows the checklist of docs/env-authoring.md', () => {
  const envs = envFolders(ROOT);

  test('there are the five built-in envs', () => {
    expect(envs.sort()).toEqual(['code-repair', 'countdown', 'deal-or-no-deal', 'kernel-speedup', 'werewolf']);
  });

  test.each(envs)('envs/%s', (env) => {
    expect(checklist(ROOT, env)).toEqual([]);
  });

  test('envs/index.ts holds one registration line per env folder and nothing else', () => {
    const code = read(join(ROOT, 'envs', 'index.ts'))
      .split('\n')
      .filter((l) => l.trim() && !/^\s*(\/\*\*|\*)/.test(l));
    expect(code.map((l) => /^export \{ \w+ \} from '\.\/([\w-]+)';$/.exec(l)?.[1] ?? l).sort()).toEqual([...envs].sort());
  });

  test("the catalog registers each env's definition once, and each env's agents declare that they play it", () => {
    expect(builtinEnvs).toHaveLength(envs.length);
    expect(new Set(builtinEnvs.map((b) => b.env.meta.id)).size).toBe(envs.length);
    for (const b of builtinEnvs) {
      expect(b.agents.length).toBeGreaterThan(0);
      for (const a of b.agents) expect({ agent: a.name, envs: a.envs }).toEqual({ agent: a.name, envs: expect.arrayContaining([b.env.meta.id]) });
    }
  });

  test('the check fires: a planted layout is reported item by item, naming the env', () => {
    const root = mkdtempSync(join(tmpdir(), 'arena-env-folders-'));
    try {
      const put = (file: string, text = '') => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      // kuhn: registered, but with old names, no agents, no renderer, no tests, a stale mutation list
      put('envs/index.ts', "/** The built-in envs. */\nexport { kuhn } from './kuhn';\n");
      put('envs/kuhn/index.ts', "export const kuhnPoker: BuiltinEnv = { env: kuhnEnv, agents: [] };\n");
      put('envs/kuhn/env.ts', 'export const kuhnEnv = {};\n');
      put('envs/kuhn/config.ts');
      put('envs/kuhn/observation.ts');
      put('envs/kuhn/README.md');
      put('envs/kuhn/stryker.json', JSON.stringify({ mutate: ['envs/kuhn/{env,flow}.ts'], jest: { config: { roots: ['<rootDir>/test/envs'] } } }));
      put('agents/kuhn/index.ts');
      // liars-dice: complete files, but not registered, its index exporting no registration object
      for (const [path] of REQUIRED) put(`envs/liars-dice/${path}`, path === 'env.ts' ? 'export const liarsDiceEnv = {};\n' : '');
      put('envs/liars-dice/stryker.json', JSON.stringify({ mutate: ['envs/liars-dice/env.ts'], jest: { config: { roots: ['<rootDir>/test/envs/liars-dice'] } } }));
      put('test/envs/liars-dice/rules.test.ts');
      put('test/agents/liars-dice.test.ts');

      expect(checklist(root, 'kuhn')).toEqual([
        "envs/kuhn: missing observe.ts (the one projection, observe(state, viewer))",
        "envs/kuhn: missing agents/index.ts (the list of the env's baselines)",
        "envs/kuhn: missing web/renderer.js (the spectator page's renderer)",
        'envs/kuhn: observation.ts is named observe.ts in every env folder',
        'envs/kuhn: envs/index.ts registers "kuhn" but index.ts exports "kuhnPoker"',
        'envs/kuhn: missing test/envs/kuhn/ (its tests)',
        "envs/kuhn: agents/kuhn/ lies outside the env's folder (its agents are envs/kuhn/agents/)",
        'envs/kuhn: stryker.json mutates envs/kuhn/flow.ts, which does not exist',
        'envs/kuhn: stryker.json\'s jest roots are not <rootDir>/test/envs/kuhn (got ["<rootDir>/test/envs"])',
      ]);
      expect(checklist(root, 'liars-dice')).toEqual([
        `envs/liars-dice: not registered by one line "export { <name> } from './liars-dice';" in envs/index.ts (found 0 lines naming it)`,
        'envs/liars-dice: index.ts exports 0 BuiltinEnv objects (one: "export const <name>: BuiltinEnv = { env, agents }")',
        'envs/liars-dice: test/agents/liars-dice.test.ts lies outside test/envs/liars-dice/',
      ]);
      // two lines naming one env are not one line; a definition file without a definition is reported
      put('envs/index.ts', "export { kuhn } from './kuhn';\nexport { kuhnEnv } from './kuhn/env';\n");
      put('envs/kuhn/env.ts', 'export const rules = {};\n');
      const again = checklist(root, 'kuhn');
      expect(again).toContain(`envs/kuhn: not registered by one line "export { <name> } from './kuhn';" in envs/index.ts (found 2 lines naming it)`);
      expect(again).toContain('envs/kuhn: env.ts exports no definition ("export const <name>Env")');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
