/**
 * The command line's startup (app/cli/program.ts, app/cli/main.ts): defining the program loads no
 * command module, no catalog and no heavy package; a command loads its own module when it runs;
 * `--version`, the help and `envs` run in the main thread (no user code), every other command in
 * the supervised worker.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runsNoUserCode } from '../../app/cli/main';
import { arena, ROOT } from './helpers';

/**
 * The files of dist/ (relative) and the packages in require.cache once `body` (a function body
 * run in a fresh Node, in the package root; it may return a promise) has finished.
 */
function loadedAfter(body: string): { ours: string[]; packages: string[] } {
  const script = `Promise.resolve((() => { ${body} })()).then(() => process.stderr.write('CACHE ' + JSON.stringify(Object.keys(require.cache)) + '\\n'))`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const line = r.stderr.split('\n').find((l) => l.startsWith('CACHE '));
  if (r.status !== 0 || !line) throw new Error(`exit ${r.status}: ${r.stderr}`);
  const files = JSON.parse(line.slice(6)) as string[];
  const dist = join(ROOT, 'dist') + '/';
  return {
    ours: files.filter((f) => f.startsWith(dist)).map((f) => f.slice(dist.length)),
    packages: [...new Set(files.map((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter((p): p is string => !!p))],
  };
}

test('defining the program loads no command module, no catalog, no env and no heavy package', () => {
  const { ours, packages } = loadedAfter(`require('./dist/app/cli/program').buildProgram(() => {});`);
  expect(ours).toContain('app/cli/program.js');
  expect(ours.filter((f) => /^src\/cli\/commands\/|^src\/catalog|^envs\/|^agents\/|^league\/(?!tournament\/defaults|exploit\/defaults)|^src\/(server|store|train\/(?!backend|limits|webgpu-backend|backend-util))/.test(f))).toEqual([]);
  expect(packages.sort()).toEqual(['commander', 'seedrandom']);
});

test('a command loads its own module when it runs, not the others', () => {
  const { ours } = loadedAfter(
    `const p = require('./dist/app/cli/program').buildProgram(() => {}); return p.parseAsync(['node', 'arena', 'envs', '--json']);`,
  );
  expect(ours).toContain('app/cli/commands/envs.js');
  expect(ours).toContain('app/catalog.js');
  expect(ours.filter((f) => f.startsWith('app/cli/commands/') && f !== 'app/cli/commands/envs.js')).toEqual([]);
});

test('--version prints the package version; only the version, the help and envs skip the worker', () => {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const r = arena(['--version']);
  expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
  const argv = (...a: string[]) => ['node', 'arena', ...a];
  for (const a of [[], ['--version'], ['-V'], ['--help'], ['-h'], ['help'], ['envs'], ['envs', '--json']]) expect(runsNoUserCode(argv(...a))).toBe(true);
  for (const a of [['check', 'x.js'], ['play', 'countdown-v1'], ['--version', 'check'], ['league', 'run'], ['train', 'x'], ['serve']]) expect(runsNoUserCode(argv(...a))).toBe(false);
});
