import { readFileSync } from 'node:fs';
import { accuracy, attack, permutationP, phaseAttack, type AttackRun } from '../../bench/timing-attack/attack';
test('analyze', () => {
  const run = JSON.parse(readFileSync(process.env.RUN!, 'utf8')) as AttackRun;
  const truth = run.games.map((g) => g.wolves);
  const D = Number(process.env.SLOW_MS);
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries({
    statedApi: (g: AttackRun['games'][0]) => attack(g.api, run.slowName, 2),
    statedLive: (g: AttackRun['games'][0]) => attack(g.live, run.slowName, 2),
    statedControl: (g: AttackRun['games'][0]) => attack(g.control, run.slowName, 2),
    phaseApi: (g: AttackRun['games'][0]) => phaseAttack(g.api, 2, 8),
    phaseApiKnownD: (g: AttackRun['games'][0]) => phaseAttack(g.api, 2, 8, D),
    phaseLiveKnownD: (g: AttackRun['games'][0]) => phaseAttack(g.live, 2, 8, D),
    phaseLive: (g: AttackRun['games'][0]) => phaseAttack(g.live, 2, 8),
    phaseControl: (g: AttackRun['games'][0]) => phaseAttack(g.control, 2, 8),
    phaseControlKnownD: (g: AttackRun['games'][0]) => phaseAttack(g.control, 2, 8, D),
  })) {
    const gs = run.games.map(f);
    out[name] = { ...accuracy(gs, truth), p: permutationP(gs, truth, 2000, 7) };
  }
  console.log(JSON.stringify(out));
});
