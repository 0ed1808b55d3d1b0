import { make } from '../../../app/catalog';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';

const SETUPS = [
  { mode: 'repair' },
  { mode: 'generate', rounds: 3 },
  { mode: 'repair', evaluator: true, testsPerRound: 5 },
  { mode: 'generate', reward: 'cure', k: 3 },
  { mode: 'generate', reward: 'cure', zscore: true },
  { mode: 'generate', tasks: 'humaneval' },
];

describe('code-repair-v1 conformance', () => {
  test.each(SETUPS)('%j passes the kit, with the leak and stream checks comparing hidden-test variants', (params) => {
    const { env } = make('code-repair-v1', params);
    const report = checkEnv(env, { params, episodes: 12 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    const note = (name: string) => report.checks.find((c) => c.name === name)!.notes?.[0] ?? '';
    expect(note('leak')).toMatch(/^[1-9]\d* private variants compared/);
    expect(note('view-stream')).toMatch(/^[1-9]\d* state\/variant pairs/);
    expect(note('capabilities')).toMatch(/[1-9]\d* effects/);
  });

  test('bad params are refused naming the field', () => {
    expect(() => make('code-repair-v1', { reward: 'cure' })).toThrow(/param "mode" must be "generate" with reward "cure"/);
    expect(() => make('code-repair-v1', { tasks: 'humaneval', mode: 'repair' })).toThrow(/param "mode" "repair" needs tasks with buggy variants/);
    expect(() => make('code-repair-v1', { task: 'js/nope' })).toThrow(/param "task" "js\/nope" is not in the task set/);
    expect(() => make('code-repair-v1', { task: 'js/gcd-lcm', variant: 9 })).toThrow(/param "variant" must be below 4/);
    expect(() => make('code-repair-v1', { variant: 1 })).toThrow(/param "variant" needs a "task"/);
    expect(() => make('code-repair-v1', { taskFile: '/nonexistent.jsonl' })).toThrow(/param "taskFile" is unusable: \/nonexistent.jsonl: cannot read the task file \(ENOENT\)/);
  });
});
