import { make } from '../../../src/catalog';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';

describe('werewolf-v1 conformance', () => {
  test.each([
    ['arena', { preset: 'arena' }],
    ['arena, no debate', { preset: 'arena', debateTurns: 0 }],
    ['lspo', { preset: 'lspo' }],
    ['witch-guard', { preset: 'witch-guard' }],
  ])('%s passes the conformance kit (leak check included)', (_name, params) => {
    const { env } = make('werewolf-v1', params);
    const report = checkEnv(env, { params, episodes: 6, seed: 3 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    const leak = report.checks.find((c) => c.name === 'leak')!;
    expect(leak.skipped).toBeFalsy();
    expect(leak.notes?.join(' ')).toMatch(/[1-9]\d* private variants compared/);
  });
});
