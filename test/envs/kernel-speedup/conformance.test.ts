import { make } from '../../../app/catalog';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';

const SETUPS = [
  {},
  { candidates: 'schedule', revisions: 2 },
  { candidates: 'code', attacker: false },
  { task: 'conv2d', evaluator: false, reward: 'log-speedup' },
  { shapes: 'held-out', revisions: 1 },
  { candidates: 'schedule', attacker: false, evaluator: false, revisions: 1 },
];

describe('kernel-speedup-v1 conformance', () => {
  test.each(SETUPS)('%j passes the kit', (params) => {
    const { env } = make('kernel-speedup-v1', params);
    const report = checkEnv(env, { params, episodes: 16 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    const note = (name: string) => report.checks.find((c) => c.name === name)!.notes?.[0] ?? '';
    expect(note('capabilities')).toMatch(/[1-9]\d* per-decision rewards \([1-9]\d* ending a try\), [1-9]\d* effects/);
  });
});
