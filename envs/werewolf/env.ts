/**
 * werewolf-v1: the social-deduction game with three published rule sets (presets `arena`,
 * `lspo`, `witch-guard`), hidden roles, night actions, bidding or ordered debate with speech
 * acts, and simultaneous or sequential votes. See README.md for the rules and sources.
 *
 * Utility: general-sum. Returns are +1 for every seat of the winning team and -1 for every
 * seat of the losing team (0 for all on a draw at the round cap); with unequal team sizes the
 * sum is not constant.
 */
import type { EnvDefinition, SeatInfo, StepResult } from '../../src/core/env';
import type { Params } from '../../src/core/params';
import { Rng, type Seed } from '../../src/core/rng';
import { NONE, SILENT, type WerewolfAction } from './actions';
import { filled } from './arrays';
import { bidStep, speakStep } from './debate';
import { werewolfEncoder } from './encoder';
import { startDay, startNight } from './flow';
import { legalFor, validate } from './legal';
import { nightStep } from './night';
import { observe, type WerewolfObservation } from './observe';
import { renderObservation } from './render';
import { ROLE_NAMES, VILLAGER, WEREWOLF, roleCode, teamOf, type RoleName } from './roles';
import { ENV_ID, PARAM_SCHEMA, fixedRoles, killSteps, maxSteps, nightSteps, resolveRules, type Rules } from './config';
import {
  Draft,
  drawPool,
  NIGHT_INIT,
  PH_BID,
  PH_NIGHT,
  PH_OVER,
  PH_SPEAK,
  PH_VOTE,
  W_DRAW,
  W_NONE,
  W_WOLVES,
  WINNER_NAMES,
  EMPTY,
  type PrivateEvent,
  type WerewolfState,
} from './state';
import { aggregate, summarize } from './summary';
import { privateVariants } from './privacy';
import { werewolfPrompt } from './prompt';
import { voteStep } from './voting';

const decks = new WeakMap<Rules, number[]>();

/** The deal: the fixed `roles` param, or the composition shuffled by the seed's generator. */
function deal(rules: Rules, fixed: RoleName[] | null, rng: Rng): number[] {
  if (fixed) return fixed.map((r) => roleCode(r));
  let deck = decks.get(rules);
  if (!deck) {
    deck = [];
    for (let code = 0; code < ROLE_NAMES.length; code++) for (let i = 0; i < rules.composition[ROLE_NAMES[code]]; i++) deck.push(code);
    decks.set(rules, deck);
  }
  return rng.shuffle(deck);
}

const seatCache = new Map<number, SeatInfo[]>();

/** The seats' roles and teams; shared between games with the same deal (never mutated). */
function seatInfos(roles: readonly number[]): SeatInfo[] {
  let key = roles.length;
  for (const r of roles) key = key * 8 + r;
  let seats = seatCache.get(key);
  if (!seats) seatCache.set(key, (seats = roles.map((r) => ({ role: ROLE_NAMES[r], team: teamOf(r) }))));
  return seats;
}

function init(params: Params, seed: Seed): WerewolfState {
  const rules = resolveRules(params);
  const rng = Rng.fromSeed(seed);
  const roles = deal(rules, fixedRoles(params), rng);
  const n = roles.length;
  const wolves: number[] = [];
  let wolfMask = 0;
  let plainMask = 0;
  for (let i = 0; i < n; i++) {
    if (roles[i] === WEREWOLF) {
      wolves.push(i);
      wolfMask |= 1 << i;
    } else if (roles[i] === VILLAGER) plainMask |= 1 << i;
  }
  const pool = drawPool(rng);
  const rngState = rng.state();
  const base: WerewolfState = {
    rules,
    roles,
    seats: seatInfos(roles),
    wolves,
    wolfMask,
    plainMask,
    pub: {
      round: 1,
      phase: 'night',
      alive: filled(n, 1),
      speaker: -1,
      lastSpeaker: -1,
      turn: 0,
      order: EMPTY as unknown as number[],
      log: [[]],
      winner: null,
      roles: null,
    },
    aliveBits: (1 << n) - 1,
    phase: PH_NIGHT,
    killSteps: killSteps(rules),
    nightSteps: nightSteps(rules),
    stepInPhase: 0,
    act: [],
    actMask: 0,
    actor: -1,
    night: NIGHT_INIT,
    named: 0,
    votes: EMPTY as unknown as number[],
    priv: new Array<PrivateEvent[]>(n).fill(EMPTY as unknown as PrivateEvent[]),
    team: EMPTY as unknown as PrivateEvent[],
    checked: 0,
    lastProtect: -1,
    lastGuard: -1,
    potions: rules.composition.witch > 0 ? [1, 1] : [0, 0],
    rng: rngState,
    pool,
    poolAt: 0,
    stats: [0, 0],
    winner: W_NONE,
  };
  const d = new Draft(base, true);
  if (rules.firstPhase === 'night') startNight(d, true);
  else startDay(d);
  return d.done();
}

function step(s: WerewolfState, actions: Record<number, WerewolfAction>): StepResult<WerewolfState> {
  const d = new Draft(s);
  switch (s.phase) {
    case PH_NIGHT:
      nightStep(d, actions);
      break;
    case PH_BID:
      bidStep(d, actions);
      break;
    case PH_SPEAK:
      speakStep(d, actions);
      break;
    case PH_VOTE:
      voteStep(d, actions);
      break;
    default:
      throw new Error('werewolf-v1 step: the game is over');
  }
  return { state: d.done(), events: d.events };
}

/** The werewolf-v1 environment definition. */
export const werewolfEnv: EnvDefinition<WerewolfState, WerewolfAction, WerewolfObservation> = {
  meta: {
    id: ENV_ID,
    description:
      'Werewolf with hidden roles, night actions, debate with speech acts (plus optional free text) and votes; presets arena (Werewolf Arena), lspo (latent-space policy optimization), witch-guard (ChatArena study).',
    roles: [
      { name: 'werewolf', count: 2, team: 'werewolves', description: 'kills at night; knows the other werewolves' },
      { name: 'villager', count: 4, team: 'villagers', description: 'no night action' },
      { name: 'seer', count: 1, team: 'villagers', description: "checks a player's role (or werewolf / not) each night" },
      { name: 'doctor', count: 1, team: 'villagers', description: "protects a player from the wolves' attack each night" },
      { name: 'witch', count: 0, team: 'villagers', description: 'one antidote and one poison per game (witch-guard)' },
      { name: 'guard', count: 0, team: 'villagers', description: 'guards a player each night, not the same one twice running (witch-guard)' },
    ],
    dynamics: 'simultaneous',
    chance: true,
    information: 'imperfect',
    hiddenRoles: true,
    utility: 'general-sum',
    maxLength: (params: Params) => maxSteps(resolveRules(params)),
    params: PARAM_SCHEMA,
    checkParams: (params: Params) => void resolveRules(params),
  },
  // A fixed deal (`roles`) is hidden information: spectators see every other param.
  publicParams: ({ roles: _dealt, ...rest }: Params) => rest,
  // Public views of this hidden-role game are released per phase (a night, a day): no decision's duration shows.
  phase: (s) => `${s.phase === PH_NIGHT ? 'night' : 'day'} ${s.pub.round}`,
  init,
  seats: (s) => s.seats,
  toAct: (s) => s.act,
  legalActions: (s, seat) => legalFor(s, seat),
  validateAction: (s, seat, action) => validate(s, seat, action),
  step,
  isTerminal: (s) => s.phase === PH_OVER,
  returns(s) {
    if (s.winner === W_NONE || s.winner === W_DRAW) return s.roles.map(() => 0);
    const wolvesWon = s.winner === W_WOLVES;
    return s.roles.map((r) => ((r === WEREWOLF) === wolvesWon ? 1 : -1));
  },
  outcome: (s) => WINNER_NAMES[s.winner],
  observe,
  render: renderObservation,
  summary: (s) => summarize(s),
  aggregate,
  actionVisibility(s, seat) {
    switch (s.phase) {
      case PH_NIGHT:
        return seat === s.actor ? { team: 'werewolves' } : { seat };
      case PH_SPEAK:
        return 'public';
      case PH_VOTE:
        return s.rules.voting === 'sequential' || s.rules.votesPublic ? 'public' : { seat };
      default:
        return { seat };
    }
  },
  defaultAction(s, seat) {
    const legal = legalFor(s, seat);
    if (legal.indexOf(SILENT) >= 0) return SILENT;
    if (legal.indexOf(NONE) >= 0) return NONE;
    return legal.length ? legal[0] : NONE;
  },
  privateVariants,
  encoder: werewolfEncoder,
  prompt: werewolfPrompt,
};
