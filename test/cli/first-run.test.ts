/**
 * Issue 28: the first CLI run after a clone says what it is doing. `npx arena` in a fresh clone
 * makes npm install the project and run `prepare` with its output hidden, so `prepare` leaves
 * the build to the bin under npx (npm_command=exec), and the bin, finding dist/ missing, builds
 * it saying so on stderr, then runs the command. Tested on a tiny project with the real
 * bin/arena.js, bin/build.js and bin/prepare.js (building the whole project takes minutes).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers';

/** A project whose app/cli/main.ts prints its arguments; with node_modules (TypeScript) unless `bare`. */
function project(o: { bare?: boolean; broken?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'arena-first-run-'));
  mkdirSync(join(root, 'bin'));
  for (const f of ['arena.js', 'build.js', 'prepare.js']) copyFileSync(join(ROOT, 'bin', f), join(root, 'bin', f));
  mkdirSync(join(root, 'app', 'cli'), { recursive: true });
  writeFileSync(
    join(root, 'app', 'cli', 'main.ts'),
    o.broken ? 'export const x: number = "not a number";\n' : 'export function main(argv: string[]): void {\n  console.log(`MAIN RAN ${argv.slice(2).join(" ")}`);\n}\n',
  );
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, rootDir: '.', outDir: 'dist', types: [] }, include: ['app'] }));
  if (!o.bare) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

function run(root: string, script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(root, 'bin', script), ...args], { cwd: root, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('dist/ missing: the first run says it is building, builds, and runs the command; the next run just runs', () => {
  const root = project();
  const first = run(root, 'arena.js', ['envs', '--json']);
  expect(first.stderr).toMatch(/^arena: dist\/ is missing \(first run after a clone\?\): compiling the TypeScript sources to dist\/ \(`npm run build`, a minute or two, once\)\.\.\.\narena: built dist\/ in \d+ s\n$/);
  expect(first.stdout).toBe('MAIN RAN envs --json\n');
  expect(first.code).toBe(0);
  const second = run(root, 'arena.js', ['envs']);
  expect(second).toEqual({ code: 0, stdout: 'MAIN RAN envs\n', stderr: '' });
}, 240_000);

test('without TypeScript installed: one line saying to run npm ci, exit 2', () => {
  const root = project({ bare: true });
  const r = run(root, 'arena.js', ['envs']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('arena: dist/ is missing (first run after a clone?), and TypeScript is not installed here to build it: run `npm ci` (it builds dist/)\n');
  expect(r.stdout).toBe('');
});

test('a failing build: the compiler says why, then one line; exit 1', () => {
  const root = project({ broken: true });
  const r = run(root, 'arena.js', ['envs']);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/error TS2322/);
  expect(r.stderr).toMatch(/arena: the build failed \(tsc exit \d+\); fix what it says, then run `npm run build`\n$/);
}, 240_000);

test('prepare builds under npm ci / install, and leaves the build to the bin under npx (its output hidden there)', () => {
  const npx = project();
  expect(run(npx, 'prepare.js', [], { npm_command: 'exec' })).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(existsSync(join(npx, 'dist'))).toBe(false);
  const ci = project();
  const r = run(ci, 'prepare.js', [], { npm_command: 'ci' });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^arena: building after install: compiling the TypeScript sources/);
  expect(existsSync(join(ci, 'dist', 'app', 'cli', 'main.js'))).toBe(true);
}, 240_000);
