import { existsSync, readFileSync } from 'node:fs';
import { EFFECT_SEAT, type ActionMap } from '../../../src/core/env';
import { parseGolden } from '../../../src/core/conformance/golden';
import { actorsOf } from '../../../src/core/conformance/playout';
import type { Registry } from '../../../src/core/registry';
import { deriveSeed } from '../../../src/core/rng';
import { envAndParams, parseJsonOption, UsageError } from '../options';
import { rerunEffect } from './rerun';
import { jsonText } from '../json-output';

export interface ReplayArgs {
  params?: string;
  seed: number;
  actions: string;
  json?: boolean;
  rerun?: boolean;
}

/** The steps to replay: a JSON list, a file holding one, or a golden playthrough (JSONL, its params and seed win). */
function readSteps(args: ReplayArgs): { steps: unknown; params?: string; seed?: number } {
  if (existsSync(args.actions) && /^\s*\{"golden"/.test(readFileSync(args.actions, 'utf8'))) {
    let g;
    try {
      g = parseGolden(readFileSync(args.actions, 'utf8'));
    } catch (e) {
      throw new UsageError(`--actions ${args.actions}: ${(e as Error).message}`);
    }
    return { steps: g.steps.map((s) => s.actions), params: JSON.stringify(g.header.params), seed: g.header.seed };
  }
  return { steps: parseJsonOption('--actions', args.actions) };
}

/**
 * `arena replay <env> --seed N --actions JSON|FILE`: steps through the given actions,
 * printing each step's acting seats, legality and events, then returns and outcome.
 * An illegal action stops the replay and is reported with its reason (exit code 1).
 */
export async function replayCommand(registry: Registry, ref: string, args: ReplayArgs): Promise<number> {
  const read = readSteps(args);
  const { env, params } = await envAndParams(registry, ref, read.params ?? args.params);
  const seed = read.seed ?? args.seed;
  const steps = read.steps;
  let differences = 0;
  let varied = 0;
  if (!Array.isArray(steps) || steps.some((s) => !s || typeof s !== 'object' || Array.isArray(s))) {
    throw new UsageError('--actions: expected a JSON list of steps, each an object from seat to action, e.g. [{"0": 17}, {"1": 120}]');
  }
  const out = (o: unknown, text: string) => process.stdout.write((args.json ? jsonText(o) : text) + '\n');
  let state = env.init(params, seed);
  let code = 0;
  let applied = 0;
  for (let i = 0; i < steps.length; i++) {
    const given = steps[i] as ActionMap<unknown>;
    if (env.isTerminal(state)) {
      out({ step: i, error: 'episode already ended' }, `step ${i}: the episode already ended; ${steps.length - i} step(s) left over`);
      code = 1;
      break;
    }
    const toAct = actorsOf(env, state);
    const checks = toAct.map((seat) => {
      const a = given[seat];
      const check = a === undefined ? { ok: false as const, reason: `no action given for seat ${seat}` } : env.validateAction(state, seat, a);
      return { seat, action: a ?? null, legal: check.ok, ...(check.ok ? {} : { reason: check.reason }) };
    });
    const extra = Object.keys(given).map(Number).filter((s) => !toAct.includes(s));
    for (const seat of extra) checks.push({ seat, action: given[seat] ?? null, legal: false, reason: `seat ${seat} is not to act` });
    if (checks.some((c) => !c.legal)) {
      out({ step: i, toAct, actions: checks }, `step ${i}: seats ${toAct.join(',')} to act\n${checks.map((c) => `  seat ${c.seat}: ${JSON.stringify(c.action)} ${c.legal ? 'legal' : `ILLEGAL: ${c.reason}`}`).join('\n')}`);
      code = 1;
      break;
    }
    const effect = env.effect(state);
    if (args.rerun && effect) {
      const r = await rerunEffect(registry, env.meta.id, i, deriveSeed(seed, 'effect', i), effect, given[EFFECT_SEAT]);
      if (r.verdict === 'different') differences++;
      if (r.verdict === 'varies') varied++;
      const words = r.verdict === 'same' ? 'same result' : r.verdict === 'varies' ? `same verdict, figures vary: ${r.detail}` : `DIFFERENT: ${r.detail}`;
      out({ step: i, rerun: r.verdict, ...(r.detail ? { difference: r.detail } : {}) }, `step ${i}: rerun of the ${effect.kind} effect: ${words}`);
    }
    const result = env.step(state, given);
    state = result.state;
    applied++;
    out(
      { step: i, toAct, actions: checks, events: result.events },
      `step ${i}: seats ${toAct.join(',')} to act\n${checks.map((c) => `  seat ${c.seat}: ${JSON.stringify(c.action)} legal`).join('\n')}${result.events.map((e) => `\n  [${typeof e.visibility === 'string' ? e.visibility : JSON.stringify(e.visibility)}] ${e.type} ${JSON.stringify(e.data)}`).join('')}`,
    );
  }
  const terminal = env.isTerminal(state);
  const end = { terminal, returns: terminal ? env.returns(state) : null, outcome: terminal ? env.outcome(state) : null, summary: env.summary(state) };
  out({ end }, terminal ? `returns ${jsonText(end.returns)}, outcome "${end.outcome}"` : `not terminal after ${applied} of ${steps.length} step(s); seats ${env.toAct(state).join(',')} to act next`);
  if (args.rerun) {
    const vary = varied ? `; ${varied} gave the recorded verdict with other figures (fresh inputs, timings)` : '';
    out({ rerun: { differences, ...(varied ? { varied } : {}) } }, differences ? `rerun: ${differences} effect(s) gave a different result${vary}` : `rerun: every effect gave the recorded ${varied ? 'verdict' : 'result'}${vary}`);
  }
  return code || (differences ? 1 : 0);
}
