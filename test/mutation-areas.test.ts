/**
 * `npm run test:mutation` (stryker/run.cjs) finds its areas in stryker/<area>.json and in each
 * built-in env's folder (envs/<env>/stryker.json, the area named after the env), and refuses an
 * area configured in both places.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
