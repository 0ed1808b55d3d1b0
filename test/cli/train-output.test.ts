/**
 * `arena train`'s output (issue 16): one return when the learner's roles share it, win rates only
 * against the opponents it actually played, and evaluation lines on lines of their own above
 * the progress bar (a real terminal through `script`), never appended onto it.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { formatEval, formatIteration } from '../../app/cli/commands/train';
import type { IterationMetrics } from '../../src/train/metrics-log';
import { ROOT } from './helpers';

function metrics(learner: Record<string, unknown>, evalRows?: Record<string, unknown>): IterationMetrics {
  return { iteration: 3, episodesPerSec: 100, samplesPerSec: 50, learners: { L: { training: true, ...learner } }, ...(evalRows ? { eval: evalRows } : {}) } as unknown as IterationMetrics;
}

describe('train output', () => {
  test('one return when the roles share it, each role otherwise', () => {
    expect(formatIteration(metrics({ meanReturn: { negotiator: 1.5 }, winRate: {}, games: {} }))).toMatch(/L: ret 1\.500$/);
    expect(formatIteration(metrics({ meanReturn: { werewolf: 0.25, seer: 0.25 }, winRate: {}, games: {} }))).toMatch(/L: ret 0\.250$/);
    expect(formatIteration(metrics({ meanReturn: { werewolf: 1, villager: -1 }, winRate: {}, games: {} }))).toMatch(/L: ret werewolf 1\.000 villager -1\.000$/);
    expect(formatEval(metrics({}, { L: { random: { meanReturn: { negotiator: 4.8 }, winRate: 0.48, episodes: 100 } } }))).toEqual(['  eval L vs random: return 4.800 win 0.480 (100 episodes)']);
  });

  test('win rates only against the opponents played this iteration', () => {
    const line = formatIteration(metrics({ meanReturn: { p: 0 }, winRate: { random: 0.6, greedy: 0, self: 0.5 }, games: { random: 8, greedy: 0, self: 16 } }));
    expect(line).toMatch(/win\[random\] 0\.60 win\[self\] 0\.50/);
    expect(line).not.toMatch(/greedy/);
  });

  const describeTty = existsSync('/usr/bin/script') ? test : test.skip;
  describeTty('on a terminal, the evaluation and the closing lines start lines of their own, not onto the bar', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'arena-train-tty-')), 'run');
    const cmd = `${process.execPath} ${resolve(ROOT, 'bin', 'arena.js')} train deal-or-no-deal-v1 --iterations 2 --backend cpu --out ${out}`;
    const r = spawnSync('/usr/bin/script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000, env: { ...process.env, COLUMNS: '400' } });
    expect(r.status).toBe(0);
    const text = r.stdout;
    expect(text).toMatch(/train \[/); // the bar was drawn
    for (const what of ['  eval negotiator vs random', 'training deal-or-no-deal-v1', 'checkpoints: ']) {
      const at = text.indexOf(what);
      expect(at).toBeGreaterThan(0);
      // preceded by a line start: a newline, or the clear-line sequence the bar's log writes
      expect(text.slice(0, at)).toMatch(/(\n|\r\x1b\[2K)$/);
    }
  }, 300_000);
});
