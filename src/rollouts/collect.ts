/**
 * Rollouts for LLM RL trainers: plays groups of episodes and turns every decision of the chosen
 * roles into a record with the chat messages the seat saw, its completion, the reward of its
 * trajectory, the group id and the GRPO / RLOO advantages. LLM seats contribute their real
 * conversation; other seats (scripted, neural) the conversation a text player would have had
 * with their answers (`SyntheticTranscript`), so scripted play doubles as SFT data.
 */
import type { EffectHandlers } from '../core/effects';
import type { Agent } from '../core/agent';
import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import type { PromptContext } from '../core/prompt';
import type { FaultPolicy } from '../match/fault-policy';
import { runMatch, type Decision, type MatchResult } from '../match/runner';
import { snapshotOf } from '../match/usage';
import { chatRecordsOf } from '../core/chat-records';
import { SyntheticTranscript, type ChatMessage } from '../core/transcript';
import { advantagesOf, stepReward, trajectoriesOf, type DecisionRef } from './credit';
import { groupMember } from './group-member';
import { provenanceOf, type RolloutProvenance } from './provenance';
import { flatGroups, groupKey, RolloutGroupError, singletonGroups, singletonRefusal } from './groups';

/** One line of a rollouts file (see docs/rollouts.md). */
export interface RolloutRecord {
  /** `episode:seat:step`. */
  id: string;
  /**
   * The GRPO group: trajectories that share a start state. The seat in the episodes of one seed
   * (`g<group>:s<seat>`), or its tries in one episode when it made several (`e<episode>:s<seat>`).
   */
  group: string;
  /** `episode:seat` or `episode:seat:try`: the decisions that share one reward. */
  trajectory: string;
  episode: number;
  /** Position of the episode in its group (0..groupSize-1). */
  member: number;
  seed: number;
  seat: number;
  role: string;
  agent: string;
  step: number;
  /** Index of the try in the seat's episode (Countdown's attempts), or null. */
  try: number | null;
  /** The prompt: the messages before this decision's answer. */
  messages: ChatMessage[];
  /** The answer text (an LLM's completion, or the action in the answer protocol). */
  completion: string;
  action: JsonValue;
  /** The trajectory's reward: the try's reward, or the seat's episode return. */
  reward: number;
  /** The env's per-decision rewards for this seat in this step (0 for terminal-reward envs). */
  stepReward: number;
  /** The seat's episode return. */
  return: number;
  advantage: { grpo: number; rloo: number };
  outcome: string;
  code: string;
  /** "model @ endpoint" for LLM seats. */
  snapshot?: string;
  /** LLM seats: requests made for this decision and whether the last answer was valid. */
  llm?: { attempts: number; ok: boolean };
  /** How the row was made: env id, params hash, prompt version, package version (src/rollouts/provenance.ts). */
  provenance: RolloutProvenance;
}

/** How to collect. */
export interface RolloutOptions {
  env: Env;
  params: Params;
  /** One agent per seat (reused across episodes). */
  agents: readonly Agent[];
  /** Groups to play; each plays `groupSize` episodes from one seed (seed + group index). */
  groups: number;
  groupSize: number;
  seed: number;
  /** Roles whose decisions are recorded (default: every role). */
  roles?: readonly string[];
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
  signal?: AbortSignal;
  /** Handlers of the env's effects (the registry's: running code in the sandbox). */
  effects?: EffectHandlers;
}

interface Captured {
  ref: DecisionRef;
  messages: ChatMessage[];
  completion: string;
  action: JsonValue;
  llm?: { attempts: number; ok: boolean };
}

/** Plays one episode and captures the chosen roles' decisions with their conversations. */
async function episode(o: RolloutOptions, k: number, member: number, seed: number): Promise<{ result: MatchResult; captured: Captured[] }> {
  const { env, params } = o;
  const agents = o.agents.map((a) => groupMember(a, member));
  const transcripts = new Map<number, SyntheticTranscript>();
  const captured: Captured[] = [];
  const llmSeats = new Set<number>();
  let seatsInfo: readonly { role: string; team: string }[] = [];
  const wanted = (seat: number) => !o.roles || o.roles.includes(seatsInfo[seat]?.role);
  const onDecision = (d: Decision) => {
    if (!wanted(d.seat)) return;
    if (chatRecordsOf(o.agents[d.seat])) {
      llmSeats.add(d.seat);
      captured.push({ ref: { seat: d.seat, step: d.step }, messages: [], completion: '', action: d.action as JsonValue });
      return;
    }
    let t = transcripts.get(d.seat);
    if (!t) {
      const s = seatsInfo[d.seat];
      const ctx: PromptContext = { env: env.meta.id, role: s.role, team: s.team, seat: d.seat, seats: seatsInfo.length, params };
      transcripts.set(d.seat, (t = new SyntheticTranscript(env, ctx)));
    }
    const { messages, completion } = t.add(d.observation, d.legal, d.action);
    captured.push({ ref: { seat: d.seat, step: d.step }, messages, completion, action: d.action as JsonValue });
  };
  const result = await runMatch({
    env,
    params,
    seed,
    matchId: `rollout-${k}`,
    agents: (seats) => {
      seatsInfo = seats;
      return agents;
    },
    deadlineMs: o.deadlineMs,
    faultPolicy: o.faultPolicy,
    signal: o.signal,
    effects: o.effects,
    onDecision,
  });
  // LLM seats: their own conversation and completion per step.
  for (const seat of llmSeats) {
    const records = new Map(chatRecordsOf(o.agents[seat])!.map((r) => [r.step, r]));
    for (const c of captured) {
      if (c.ref.seat !== seat) continue;
      const r = records.get(c.ref.step);
      if (!r) continue;
      c.messages = r.messages as ChatMessage[];
      c.completion = r.completion;
      c.llm = { attempts: r.attempts, ok: r.ok };
    }
  }
  return { result, captured };
}

/** What one played group of episodes gave, beside its records. */
export interface GroupStats {
  /** GRPO groups (distinct `group` keys) among the records. */
  grpoGroups: number;
  /** Trajectories among the records. */
  trajectories: number;
  /** GRPO groups of a single trajectory (advantage 0); only after the first group, which refuses them. */
  singletons: string[];
  /** GRPO groups of several trajectories whose rewards are all equal (advantage 0 throughout). */
  flat: string[];
  /** Each episode's end code (`ok`, `forfeit`, `aborted`) and its first fault (`seat N: reason`), in order. */
  episodes: { code: string; fault?: string }[];
}

/**
 * Plays `groups` x `groupSize` episodes; after each group, hands its records (in episode,
 * decision order) to `onGroup`. Returns the number of records. Throws a
 * {@link RolloutGroupError} before handing over the first group when one of its GRPO groups
 * holds a single trajectory (advantage 0: nothing to learn; see ./groups.ts).
 */
export async function collectRollouts(
  o: RolloutOptions,
  onGroup: (records: RolloutRecord[], group: number, stats: GroupStats) => void | Promise<void>,
): Promise<number> {
  let total = 0;
  const provenance = provenanceOf(o.env, o.params);
  for (let g = 0; g < o.groups; g++) {
    if (o.signal?.aborted) break;
    const seed = o.seed + g;
    const played: { k: number; member: number; result: MatchResult; captured: Captured[] }[] = [];
    for (let m = 0; m < o.groupSize; m++) {
      const k = g * o.groupSize + m;
      const { result, captured } = await episode(o, k, m, seed);
      if (result.code === 'aborted' && o.signal?.aborted) return total;
      played.push({ k, member: m, result, captured });
    }
    // Trajectories of the whole group and their GRPO groups (./groups.ts).
    const trajs = played.flatMap((p) => {
      const ts = trajectoriesOf(p.captured.map((c) => c.ref), p.result.returns, p.result.rewards);
      const tries = (seat: number) => ts.filter((t) => t.seat === seat && t.try !== null).length;
      return ts.map((t) => ({ ...t, p, group: groupKey(g, p.k, t.seat, t.try !== null, tries(t.seat)) }));
    });
    const keys = trajs.map((t) => t.group);
    const singletons = singletonGroups(keys);
    if (g === 0) {
      const roleOf = (key: string) => {
        const t = trajs.find((x) => x.group === key)!;
        return t.p.result.seats[t.seat].role;
      };
      const refusal = singletonRefusal(singletons, roleOf, o.groupSize);
      if (refusal) throw new RolloutGroupError(refusal);
    }
    const rewards = trajs.map((t) => t.reward);
    const adv = advantagesOf(rewards, keys);
    const records: RolloutRecord[] = [];
    for (const p of played) {
      const rows: { index: number; rec: RolloutRecord }[] = [];
      trajs.forEach((t, ti) => {
        if (t.p !== p) return;
        for (const i of t.decisions) {
          const c = p.captured[i];
          const { seat, step } = c.ref;
          const snap = snapshotOf(p.result.reports?.[seat]);
          rows.push({
            index: i,
            rec: {
              id: `${p.k}:${seat}:${step}`,
              group: t.group,
              trajectory: t.try === null ? `${p.k}:${seat}` : `${p.k}:${seat}:${t.try}`,
              episode: p.k,
              member: p.member,
              seed,
              seat,
              role: p.result.seats[seat].role,
              agent: p.result.agents[seat],
              step,
              try: t.try,
              messages: c.messages,
              completion: c.completion,
              action: c.action,
              reward: t.reward,
              stepReward: stepReward(p.result.rewards, seat, step),
              return: p.result.returns[seat],
              advantage: adv[ti],
              outcome: p.result.outcome,
              code: p.result.code,
              ...(snap ? { snapshot: snap } : {}),
              ...(c.llm ? { llm: c.llm } : {}),
              provenance,
            },
          });
        }
      });
      rows.sort((a, b) => a.index - b.index);
      records.push(...rows.map((r) => r.rec));
    }
    total += records.length;
    await onGroup(records, g, { grpoGroups: new Set(keys).size, trajectories: trajs.length, singletons, flat: flatGroups(keys, rewards),
      episodes: played.map((p) => {
        const f = p.result.faults[0];
        return f ? { code: p.result.code, fault: `seat ${f.seat}: ${f.reason}` } : { code: p.result.code };
      }),
    });
  }
  return total;
}
