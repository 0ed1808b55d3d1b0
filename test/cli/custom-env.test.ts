/**
 * Issue 16, "plugging in your own env and agents": the package is a library. Both ways of
 * docs/env-authoring.md are exercised on Kuhn poker (test/fixtures/outside/):
 *
 * - a loose file in a folder outside the repo, with nothing installed beside it, run by the
 *   `arena` command: `require('selfplay-arena')` (CommonJS env) and `import ... from
 *   'selfplay-arena'` (ES module agents) resolve to the running package; check, play and a league
 *   (whose config names its modules relative to itself) run on it;
 * - a project that depends on the package: `exports` gives the public API and its types (a
 *   TypeScript file type-checks against them, a wrong one fails), and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena, jsonLines, ROOT } from './helpers';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'outside');

/** A fresh folder outside the repo holding copies of the Kuhn poker env and agents. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-outside-'));
  for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(dir, f));
  return dir;
}

describe('a loose env file outside the repo, run by the arena command', () => {
  const dir = outside();
  const env = join(dir, 'kuhn-poker.js');

  test('plain node cannot resolve selfplay-arena there (so the CLI is what resolves it)', () => {
    const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(env)})`], { cwd: dir, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Cannot find module 'selfplay-arena'/);
  });

  test('arena check passes every check of the conformance kit', () => {
    const r = arena(['check', env, '--episodes', '10']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^kuhn-poker-v1: PASS/);
    expect(r.code).toBe(0);
  });

  test('arena play with agents from an ES module that imports selfplay-arena', () => {
    const r = arena(['play', env, '--agents', `random,${join(dir, 'kuhn-agents.mjs')}#always-bet`, '--episodes', '40', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const summary = lines[lines.length - 1].summary as { episodes: number; codes: Record<string, number>; faults: number };
    expect(summary).toMatchObject({ episodes: 40, codes: { ok: 40 }, faults: 0 });
    // always-bet in seat 1 never checks back: every episode ends at most 3 steps in
    expect(lines.slice(0, -1).every((l) => (l.length as number) <= 3)).toBe(true);
  });

  test('ARENA_WORKER=0 (the main thread) resolves it too', () => {
    const r = arena(['play', env, '--agents', join(dir, 'kuhn-agents.mjs'), '--episodes', '2', '--json'], { env: { ARENA_WORKER: '0' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test('a league whose config names its modules relative to itself, run from another working directory', () => {
    const sub = join(dir, 'leagues');
    mkdirSync(sub);
    copyFileSync(env, join(sub, 'kuhn-poker.js'));
    copyFileSync(join(dir, 'kuhn-agents.mjs'), join(sub, 'kuhn-agents.mjs'));
    const cfg = join(sub, 'kuhn.json');
    writeFileSync(
      cfg,
      JSON.stringify({ name: 'kuhn', env: './kuhn-poker.js', players: [{ id: 'random', agent: 'random' }, { id: 'bettor', agent: './kuhn-agents.mjs#always-bet' }], ratings: { bootstrap: 20 }, budget: { matches: 12 } }),
    );
    const db = join(dir, 'kuhn.db');
    // the working directory is the repo (helpers' cwd), where ./kuhn-poker.js does not exist
    expect(existsSync(join(ROOT, 'kuhn-poker.js'))).toBe(false);
    const r = arena(['league', 'run', '--config', cfg, '--db', db, '--quiet']);
    expect(r.stderr).toMatch(/league "kuhn": 12\/12 matches \(12 this run\)/);
    expect(r.code).toBe(0);
    const table = arena(['league', 'table', '--db', db, '--json', '--resamples', '20']);
    const rows = (JSON.parse(table.stdout) as { rows: { player: string; games: number }[] }).rows;
    expect(rows.map((x) => x.player).sort()).toEqual(['bettor', 'random']);
    expect(rows.every((x) => x.games === 12)).toBe(true);
  });
});

describe('a project that depends on the package', () => {
  const project = mkdtempSync(join(tmpdir(), 'arena-project-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'selfplay-arena'), 'dir');
  copyFileSync(join(FIXTURES, 'kuhn-poker.js'), join(project, 'kuhn-poker.js'));
  const node = (code: string) => spawnSync(process.execPath, ['-e', code], { cwd: project, encoding: 'utf8' });

  test('require("selfplay-arena") gives the public API; its env passes checkEnv in-process', () => {
    const r = node(`
      const a = require('selfplay-arena');
      const names = ['defineEnv', 'defineAgent', 'Rng', 'checkEnv', 'normalizeEnv', 'scriptedAgent', 'runMatch'];
      const report = a.checkEnv(a.normalizeEnv(require('./kuhn-poker.js').env), { episodes: 5 });
      console.log(JSON.stringify({ types: names.map((n) => typeof a[n]), random: typeof a.randomAgent.create, agents: a.builtinAgents.map((f) => f.name).includes('random'), ok: report.ok, client: typeof require('selfplay-arena/client').connectSeat }));
    `);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ types: Array(7).fill('function'), random: 'function', agents: true, ok: true, client: 'function' });
  });

  test('exports keep the internals private', () => {
    const r = node(`require('selfplay-arena/dist/src/core/rng')`);
    expect(r.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  test('TypeScript gets the types: a correct env type-checks, a wrong one fails naming the member', () => {
    writeFileSync(
      join(project, 'good.ts'),
      `import { defineEnv, checkEnv, normalizeEnv, Rng, type AgentFactory } from 'selfplay-arena';
export const env = defineEnv({
  meta: { id: 'coin-v1', roles: [{ name: 'player', count: 1 }], dynamics: 'sequential', chance: true, information: 'perfect', utility: 'general-sum', maxLength: 1, params: {} },
  init: (_params, seed) => ({ coin: Rng.fromSeed(seed).int(2), guess: -1 }),
  toAct: (s) => (s.guess < 0 ? [0] : []),
  legalActions: (s, seat) => (s.guess < 0 && seat === 0 ? [0, 1] : []),
  step: (s, actions) => ({ state: { ...s, guess: actions[0] }, events: [] }),
  isTerminal: (s) => s.guess >= 0,
  returns: (s) => [s.guess === s.coin ? 1 : 0],
  outcome: (s) => (s.guess < 0 ? '' : s.guess === s.coin ? 'right' : 'wrong'),
  observe: (s) => ({ guessed: s.guess >= 0 }),
});
export const agents: AgentFactory[] = [];
const ok: boolean = checkEnv(normalizeEnv(env)).ok;
export { ok };
`,
    );
    writeFileSync(join(project, 'bad.ts'), `import { defineEnv } from 'selfplay-arena';\nexport const env = defineEnv({ meta: { id: 'x-v1' }, init: () => 1 });\n`);
    const tsconfig = (file: string) => ({
      compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
      files: [file],
    });
    writeFileSync(join(project, 'tsconfig.good.json'), JSON.stringify(tsconfig('good.ts')));
    writeFileSync(join(project, 'tsconfig.bad.json'), JSON.stringify(tsconfig('bad.ts')));
    const tsc = (p: string) => spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', p], { cwd: project, encoding: 'utf8' });
    const good = tsc('tsconfig.good.json');
    expect(good.stdout).toBe('');
    expect(good.status).toBe(0);
    const bad = tsc('tsconfig.bad.json');
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/bad\.ts.*error TS2\d+:.*(roles|toAct|step)/s);
  }, 120_000);
});
