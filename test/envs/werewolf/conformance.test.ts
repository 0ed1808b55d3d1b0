import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { make } from '../../../app/catalog';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';
import { parseGolden, verifyGolden } from '../../../src/core/conformance/golden';

const golden = (file: string) => parseGolden(readFileSync(join(__dirname, '..', '..', '..', 'envs', 'werewolf', 'goldens', file), 'utf8'));

describe('werewolf-v1 conformance', () => {
  test.each([
    ['arena', { preset: 'arena' }, 'arena-random.jsonl'],
    ['arena, no debate', { preset: 'arena', debateTurns: 0 }, null],
    ['lspo', { preset: 'lspo' }, 'lspo-rule-based.jsonl'],
    ['witch-guard', { preset: 'witch-guard' }, 'witch-guard-rule-based.jsonl'],
    ['custom: 10 players, all roles, day first, roles revealed on death', { composition: { werewolf: 3, villager: 3, seer: 1, doctor: 1, witch: 1, guard: 1 }, firstPhase: 'day', revealOnDeath: true, nightKill: 'vote-in-turn', voting: 'sequential', exile: 'plurality-random' }, null],
  ])('%s passes the conformance kit (leak check included)', (_name, params, file) => {
    const { env } = make('werewolf-v1', params);
    const goldens = file ? [{ name: file, golden: golden(file) }] : [];
    const report = checkEnv(env, { params, episodes: 5, seed: 3, goldens });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    const leak = report.checks.find((c) => c.name === 'leak')!;
    expect(leak.skipped).toBeFalsy();
    expect(Number(/(\d+) private variants compared/.exec(leak.notes!.join(' '))![1])).toBeGreaterThan(100);
  });

  test('a golden playthrough fails when the rules change under it', () => {
    const g = golden('lspo-rule-based.jsonl');
    const { env } = make('werewolf-v1', { preset: 'lspo' });
    expect(verifyGolden(env, g)).toEqual([]);
    const changed = { ...g, header: { ...g.header, params: { preset: 'lspo', seerResult: 'role' } } };
    expect(verifyGolden(env, changed).length).toBeGreaterThan(0);
  });

  test('the leak check catches an observation that shows another seat\'s role', () => {
    const { env } = make('werewolf-v1', { preset: 'lspo' });
    const leaky = { ...env, observe: (s: any, v: any) => ({ ...env.observe(s, v), peek: s.roles }) };
    const report = checkEnv(leaky, { params: { preset: 'lspo' }, episodes: 2, seed: 1 });
    expect(report.checks.find((c) => c.name === 'leak')!.ok).toBe(false);
  });
});
