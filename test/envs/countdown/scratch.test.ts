import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';
import { make } from '../../../src/catalog';

const combos: [string, string, string][] = [];
for (const rules of ['uk', 'tinyzero', 'reasoning-gym']) for (const roles of ['solver', 'solver-evaluator', 'challenger-solver', 'challenger-solver-evaluator']) for (const answer of ['text', 'steps']) combos.push([rules, roles, answer]);

test.each(combos)('%s %s %s', (rules, roles, answer) => {
  const params = { rules, roles, answer, ...(roles.startsWith('challenger') ? { attempts: 3 } : {}) };
  const { env } = make('countdown-v1', params);
  const t0 = Date.now();
  const report = checkEnv(env, { params, episodes: 6, skip: answer === 'text' ? ['encoder'] : [] });
  console.log(rules, roles, answer, Date.now() - t0, 'ms');
  if (!report.ok) console.log(formatReport(report));
  expect(report.ok).toBe(true);
});
