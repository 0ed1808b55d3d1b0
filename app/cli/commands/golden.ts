import { formatGolden, recordGolden } from '../../../src/core/conformance/golden';
import { EFFECT_SEAT, type ActionMap } from '../../../src/core/env';
import type { JsonValue } from '../../../src/core/json';
import type { Registry } from '../../../src/core/registry';
import { runMatch } from '../../../src/match/runner';
import { agentsForSeats, envAndParams, FailureError, splitAgentList, writeOutput } from '../options';

export interface GoldenArgs {
  params?: string;
  seed: number;
  agents: string;
  out?: string;
}

/**
 * `arena golden <env>`: plays one episode with the given agents and writes it as a golden
 * playthrough (JSONL) to --out or stdout, then says on stderr what it wrote (env, seed, steps,
 * outcome, returns, where).
 */
export async function goldenCommand(registry: Registry, ref: string, args: GoldenArgs): Promise<number> {
  const { env, params } = await envAndParams(registry, ref, args.params);
  const seats = env.seats(env.init(params, args.seed)).length;
  const agents = await agentsForSeats(registry, env, params, splitAgentList(args.agents), seats, args.seed);
  const steps: ActionMap<JsonValue>[] = [];
  let current: { step: number; map: ActionMap<JsonValue> } | null = null;
  const record = (step: number, seat: number, action: JsonValue) => {
    if (!current || current.step !== step) steps.push((current = { step, map: {} }).map);
    current.map[seat] = action;
  };
  const result = await runMatch({
    env,
    params,
    seed: args.seed,
    agents,
    effects: registry.effects(),
    onDecision: (d) => record(d.step, d.seat, d.action as JsonValue),
    onEffect: (e) => record(e.step, EFFECT_SEAT, e.result),
  });
  if (result.code !== 'ok') throw new FailureError(`episode ended with code ${result.code}${result.faults.length ? ` (${result.faults[0].kind} of seat ${result.faults[0].seat}: ${result.faults[0].reason})` : ''}; no golden written`);
  writeOutput(args.out, formatGolden(recordGolden(env, params, args.seed, steps)));
  // what was written, on stderr (stdout may be the playthrough itself)
  process.stderr.write(
    `golden: ${env.meta.id} seed ${args.seed}, ${steps.length} step(s), outcome "${result.outcome}", returns ${JSON.stringify(result.returns)} written to ${args.out ?? 'stdout'}\n`,
  );
  return 0;
}
