/**
 * Per-episode summary and the play aggregate: win rate per team, mean rounds, how often
 * villager-team votes hit a werewolf, and how often the key roles survive (the per-role
 * statistics of LLM Werewolf evaluations).
 */
import type { JsonValue } from '../../src/core/json';
import { DOCTOR, GUARD, ROLE_NAMES, SEER, WITCH } from './roles';
import { WINNER_NAMES, type WerewolfState } from './state';

const KEY_ROLES = [SEER, DOCTOR, WITCH, GUARD] as const;

/** Summary of one finished (or running) game. */
export type WerewolfSummary = {
  preset: string;
  winner: string;
  rounds: number;
  roles: string[];
  alive: number[];
  /** Votes cast by villager-team seats in day votes, and how many of them were for a werewolf. */
  villagerVotes: number;
  villagerVotesOnWolves: number;
  /** Whether each key role present in the game was alive at the end. */
  survived: { [role: string]: boolean };
};

/** The summary of a game. */
export function summarize(s: WerewolfState): WerewolfSummary {
  const survived: { [role: string]: boolean } = {};
  for (const r of KEY_ROLES) {
    const seat = s.roles.indexOf(r);
    if (seat >= 0) survived[ROLE_NAMES[r]] = s.pub.alive[seat] === 1;
  }
  return {
    preset: s.rules.preset,
    winner: WINNER_NAMES[s.winner],
    rounds: s.pub.round,
    roles: s.roles.map((r) => ROLE_NAMES[r]),
    alive: s.pub.alive,
    villagerVotes: s.stats[0],
    villagerVotesOnWolves: s.stats[1],
    survived,
  };
}

function isSummary(v: JsonValue): v is WerewolfSummary & JsonValue {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { winner?: unknown }).winner === 'string';
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Aggregates episode summaries into win rates, mean rounds, vote accuracy and key-role survival. */
export function aggregate(summaries: readonly JsonValue[]): { [key: string]: JsonValue } {
  const list = summaries.filter(isSummary);
  const n = list.length;
  const wins: { [team: string]: number } = { werewolves: 0, villagers: 0, draw: 0 };
  let rounds = 0;
  let votes = 0;
  let onWolves = 0;
  const alive: { [role: string]: number } = {};
  const present: { [role: string]: number } = {};
  for (const s of list) {
    if (s.winner in wins) wins[s.winner]++;
    rounds += s.rounds;
    votes += s.villagerVotes;
    onWolves += s.villagerVotesOnWolves;
    for (const [role, ok] of Object.entries(s.survived)) {
      present[role] = (present[role] ?? 0) + 1;
      alive[role] = (alive[role] ?? 0) + (ok ? 1 : 0);
    }
  }
  const survival: { [role: string]: number } = {};
  for (const role of Object.keys(present)) survival[role] = round3(alive[role] / present[role]);
  return {
    games: n,
    winRate: {
      werewolves: n ? round3(wins.werewolves / n) : 0,
      villagers: n ? round3(wins.villagers / n) : 0,
      draw: n ? round3(wins.draw / n) : 0,
    },
    wins,
    meanRounds: n ? round3(rounds / n) : 0,
    villagerVotes: votes,
    villagerVoteOnWolfRate: votes ? round3(onWolves / votes) : 0,
    keyRoleSurvival: survival,
  };
}
