import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';
import { parseGolden } from '../../../src/core/conformance/golden';
import { make } from '../../../app/catalog';

const ID = 'deal-or-no-deal-v1';
const GOLDEN_DIR = join(__dirname, '..', '..', '..', 'envs', 'deal-or-no-deal', 'goldens');

function goldensFor(protocol: string) {
  let files: string[] = [];
  try {
    files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.jsonl'));
  } catch {
    files = [];
  }
  return files
    .map((name) => ({ name, golden: parseGolden(readFileSync(join(GOLDEN_DIR, name), 'utf8')) }))
    .filter((g) => (g.golden.header.params.protocol ?? 'openspiel') === protocol);
}

const CASES: { name: string; params: Record<string, unknown>; episodes: number }[] = [
  { name: 'openspiel defaults', params: {}, episodes: 40 },
  { name: 'openspiel, prob_end and discount', params: { prob_end: 0.2, discount: 0.9, coop: 0.5 }, episodes: 40 },
  { name: 'openspiel zero-sum, generated instances', params: { coop: -1, instances: 'generated', max_turns: 4 }, episodes: 30 },
  { name: 'dialogue defaults', params: { protocol: 'dialogue' }, episodes: 40 },
  { name: 'dialogue cooperative, short talk', params: { protocol: 'dialogue', coop: 1, max_turns: 3 }, episodes: 40 },
];

describe(`${ID} conformance`, () => {
  test.each(CASES)('$name passes every check', ({ params, episodes }) => {
    const { env } = make(ID, params);
    const protocol = (params.protocol as string) ?? 'openspiel';
    const goldens = goldensFor(protocol);
    const report = checkEnv(env, { params, episodes, seed: 7, goldens });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    const leak = report.checks.find((c) => c.name === 'leak')!;
    expect(leak.notes?.[0]).toMatch(/^[1-9]\d* private variants compared/);
  });

  test('goldens exist for both protocols', () => {
    expect(goldensFor('openspiel').length).toBeGreaterThanOrEqual(2);
    expect(goldensFor('dialogue').length).toBeGreaterThanOrEqual(2);
  });
});
