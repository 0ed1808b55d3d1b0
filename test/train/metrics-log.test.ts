/**
 * MetricsLog: the CSV lines up when columns appear later (evaluations) and after a resume, and
 * the rows are not kept in memory (issue 28: a league trains for as long as it runs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricsLog } from '../../src/train/metrics-log';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-metrics-log-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csv = (d: string) => readFileSync(join(d, 'metrics.csv'), 'utf8');

test('rows are appended; a row with new columns rewrites the whole CSV so the columns line up', () => {
  const d = join(dir, 'a');
  const log = new MetricsLog('run', d);
  log.write(1, { iteration: 1, loss: 0.5 });
  log.write(2, { iteration: 2, loss: 0.25 });
  expect(csv(d)).toBe('iteration,loss\n1,0.5\n2,0.25\n');
  log.write(3, { iteration: 3, loss: 0.125, eval: { winRate: 0.75, opponents: ['a', 'b'] } });
  expect(csv(d)).toBe('iteration,loss,eval.winRate,eval.opponents\n1,0.5,,\n2,0.25,,\n3,0.125,0.75,"[""a"",""b""]"\n');
  log.write(4, { iteration: 4, loss: 1 });
  expect(csv(d)).toBe('iteration,loss,eval.winRate,eval.opponents\n1,0.5,,\n2,0.25,,\n3,0.125,0.75,"[""a"",""b""]"\n4,1,,\n');
  // nothing per row stays in memory: only the column names
  const fields = Object.values(log as unknown as Record<string, unknown>);
  expect(fields.some((v) => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object')).toBe(false);
});

test('a resumed log keeps the rows up to the resume point, in the CSV too', () => {
  const d = join(dir, 'b');
  const first = new MetricsLog('run', d);
  for (let i = 1; i <= 3; i++) first.write(i, { iteration: i, loss: i });
  const resumed = new MetricsLog('run', d, undefined, 2);
  expect(csv(d)).toBe('iteration,loss\n1,1\n2,2\n');
  resumed.write(3, { iteration: 3, loss: 30 });
  expect(csv(d)).toBe('iteration,loss\n1,1\n2,2\n3,30\n');
  expect(readFileSync(join(d, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
});
