/**
 * `npm run test:mutation` (stryker/run.cjs) finds its areas in stryker/<area>.json and in each
 * built-in env's folder (envs/<env>/stryker.json, the area named after the env), and refuses an
 * area configured in both places.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const run = (root: string, ...args: string[]) => spawnSync(process.execPath, [join(root, 'stryker', 'run.cjs'), ...args], { cwd: root, encoding: 'utf8' });

test("the areas are stryker/'s and each env's own (envs/<env>/stryker.json)", () => {
  const r = run(ROOT);
  expect(r.status).toBe(0);
  const areas = /^areas: (.*)$/m.exec(r.stdout)![1].split(', ');
  expect(areas).toEqual(expect.arrayContaining(['werewolf', 'countdown', 'deal-or-no-deal', 'code-repair', 'kernel-speedup', 'match', 'store']));
  expect(areas).not.toContain('base');
});

test('an area configured both in stryker/ and in its env folder is refused (exit 2, naming both files)', () => {
  const root = mkdtempSync(join(tmpdir(), 'arena-mutation-areas-'));
  mkdirSync(join(root, 'stryker'));
  mkdirSync(join(root, 'envs', 'kuhn'), { recursive: true });
  copyFileSync(join(ROOT, 'stryker', 'run.cjs'), join(root, 'stryker', 'run.cjs'));
  writeFileSync(join(root, 'stryker', 'base.json'), '{}');
  writeFileSync(join(root, 'envs', 'kuhn', 'stryker.json'), '{}');
  expect(run(root).stdout).toMatch(/^areas: kuhn\n/);
  writeFileSync(join(root, 'stryker', 'kuhn.json'), '{}');
  const r = run(root);
  expect(r.status).toBe(2);
  expect(r.stderr).toBe('test:mutation: the area "kuhn" is configured twice (stryker/kuhn.json and envs/kuhn/stryker.json)\n');
});

/** `{a,b}` alternatives of a glob, expanded (one level, as the configs use them). */
const expand = (glob: string): string[] => {
  const m = /\{([^}]*)\}/.exec(glob);
  return m ? m[1].split(',').flatMap((alt) => expand(glob.slice(0, m.index) + alt + glob.slice(m.index + m[0].length))) : [glob];
};

test('every file an area names exists: mutated files, listed tests, the staged command of the js-harness area', () => {
  const r = run(ROOT);
  const areas = /^areas: (.*)$/m.exec(r.stdout)![1].split(', ');
  const named: string[] = [];
  for (const area of areas) {
    const own = join(ROOT, 'stryker', `${area}.json`);
    const file = existsSync(own) ? own : join(ROOT, 'envs', area, 'stryker.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { mutate?: string[]; jest?: { config?: { roots?: string[]; testMatch?: string[] } }; commandRunner?: { command?: string } };
    const roots = (config.jest?.config?.roots ?? ['<rootDir>']).map((r) => r.replace('<rootDir>', ROOT));
    // a test named without its folder ("**/admission.test.ts") is looked for under the area's roots
    const exists = (p: string) => (p.includes('/') ? existsSync(join(ROOT, p)) : roots.some((r) => existsSync(join(r, p))));
    const paths = [
      ...(config.mutate ?? []).filter((m) => !m.startsWith('!')).flatMap(expand).map((m) => m.replace(/:\d+-\d+$/, '')),
      ...(config.jest?.config?.testMatch ?? []).flatMap(expand).map((g) => g.replace(/^\*\*\//, '')),
      ...(config.commandRunner?.command ?? '').split(/\s+/).filter((w) => w.endsWith('.ts') || w.endsWith('.cjs')),
    ].filter((p) => !/[*?[]/.test(p));
    for (const p of paths) named.push(`${area}: ${p}${exists(p) ? '' : ' (missing)'}`);
  }
  expect(named.filter((n) => n.endsWith('(missing)'))).toEqual([]);
  // the lists are not empty: the js-harness command names its test files
  expect(named).toEqual(expect.arrayContaining(['js-harness: stryker/staged-jest.cjs', 'js-harness: test/sandbox/pool-pipeline.test.ts', 'grader: test/sandbox/grader-edges.test.ts']));
});

test('staged-jest runs the files in order and stops at the first that fails (exit 1, naming it)', () => {
  const root = mkdtempSync(join(tmpdir(), 'arena-staged-jest-'));
  mkdirSync(join(root, 'stryker'));
  copyFileSync(join(ROOT, 'stryker', 'staged-jest.cjs'), join(root, 'stryker', 'staged-jest.cjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'jest.config.js'), 'module.exports = { testEnvironment: "node" };\n');
  writeFileSync(join(root, 'a.test.js'), 'test("a", () => require("fs").appendFileSync("ran", "a"));\n');
  writeFileSync(join(root, 'b.test.js'), 'test("b", () => { require("fs").appendFileSync("ran", "b"); expect(1).toBe(2); });\n');
  writeFileSync(join(root, 'c.test.js'), 'test("c", () => require("fs").appendFileSync("ran", "c"));\n');
  const staged = (...files: string[]) => spawnSync(process.execPath, [join(root, 'stryker', 'staged-jest.cjs'), ...files], { cwd: root, encoding: 'utf8' });
  const ok = staged('a.test.js', 'c.test.js');
  expect(ok.status).toBe(0);
  const failed = staged('c.test.js', 'b.test.js', 'a.test.js');
  expect(failed.status).toBe(1);
  expect(failed.stderr).toContain('staged-jest: b.test.js failed (exit 1); the files after it were not run');
  expect(readFileSync(join(root, 'ran'), 'utf8')).toBe('accb');
  expect(staged().status).toBe(2);
  expect(staged('--bail').status).toBe(2);
});
