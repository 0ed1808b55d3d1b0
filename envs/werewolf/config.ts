/**
 * The rules of one werewolf-v1 game: every rule is a flag, a preset fills the flags with a
 * published rule set, and explicit params override single flags.
 *
 * Presets (see README.md for sources):
 * - `arena`: Google's Werewolf Arena (8 players, bidding debate, strict-majority exile).
 * - `lspo`: the latent-space policy optimization environment (7 players, seat-order talk,
 *   simultaneous public votes with abstention, plurality with random tie-break, 10-round cap).
 * - `witch-guard`: the ChatArena-based Werewolf study (7 players with witch and guard,
 *   shuffled speaking order, sequential votes, ties exile nobody, "side" win rule).
 */
import type { JsonValue } from '../../src/core/json';
import { ParamError, type ParamSchema, type Params } from '../../src/core/params';
import { MAX_BID_LIMIT } from './actions';
import { MAX_SEATS, ROLE_NAMES, SINGLETON_ROLES, type RoleName } from './roles';

export const ENV_ID = 'werewolf-v1';
export const PRESETS = ['arena', 'lspo', 'witch-guard'] as const;
export type PresetName = (typeof PRESETS)[number];

export type Composition = { [R in RoleName]: number };
export type NightKill = 'random-wolf' | 'propose-decide' | 'vote-in-turn';
export type DebateMode = 'bidding' | 'seat-order' | 'shuffled';
export type VotingMode = 'simultaneous' | 'sequential';
export type ExileRule = 'majority' | 'plurality-random' | 'plurality-none';
export type WinRule = 'parity' | 'majority' | 'villagers-dead';

/** The resolved rules of a game (plain JSON; stored once in the state and shared by every observation). */
export type Rules = {
  preset: PresetName;
  players: number;
  composition: Composition;
  firstPhase: 'night' | 'day';
  nightKill: NightKill;
  seerResult: 'role' | 'team';
  seerRepeat: boolean;
  doctorSelf: boolean;
  doctorRepeat: boolean;
  guardSelf: boolean;
  guardRepeat: boolean;
  witchSelfSave: boolean;
  witchBothSameNight: boolean;
  debate: DebateMode;
  debateTurns: number;
  speechRounds: number;
  maxBid: number;
  mentionWeight: number;
  voting: VotingMode;
  abstain: boolean;
  votesPublic: boolean;
  exile: ExileRule;
  winRule: WinRule;
  maxRounds: number;
  roundCap: 'random' | 'draw';
  revealOnDeath: boolean;
};

type Flags = Omit<Rules, 'preset' | 'players'>;

const comp = (c: Partial<Composition>): Composition => ({ villager: 0, werewolf: 0, seer: 0, doctor: 0, witch: 0, guard: 0, ...c });

/** The published rule sets. Flags a source leaves open are marked "ours" in README.md. */
export const PRESET_FLAGS: { readonly [P in PresetName]: Readonly<Flags> } = {
  arena: {
    composition: comp({ werewolf: 2, seer: 1, doctor: 1, villager: 4 }),
    firstPhase: 'night',
    nightKill: 'random-wolf',
    seerResult: 'role',
    seerRepeat: false,
    doctorSelf: true,
    doctorRepeat: true,
    guardSelf: true,
    guardRepeat: true,
    witchSelfSave: true,
    witchBothSameNight: true,
    debate: 'bidding',
    debateTurns: 8,
    speechRounds: 1,
    maxBid: 4,
    mentionWeight: 2,
    voting: 'simultaneous',
    abstain: false,
    votesPublic: false,
    exile: 'majority',
    winRule: 'parity',
    maxRounds: 20,
    roundCap: 'draw',
    revealOnDeath: false,
  },
  lspo: {
    composition: comp({ werewolf: 2, seer: 1, doctor: 1, villager: 3 }),
    firstPhase: 'night',
    nightKill: 'propose-decide',
    seerResult: 'team',
    seerRepeat: true,
    doctorSelf: true,
    doctorRepeat: true,
    guardSelf: true,
    guardRepeat: true,
    witchSelfSave: true,
    witchBothSameNight: true,
    debate: 'seat-order',
    debateTurns: 8,
    speechRounds: 1,
    maxBid: 4,
    mentionWeight: 2,
    voting: 'simultaneous',
    abstain: true,
    votesPublic: true,
    exile: 'plurality-random',
    winRule: 'majority',
    maxRounds: 10,
    roundCap: 'random',
    revealOnDeath: false,
  },
  'witch-guard': {
    composition: comp({ werewolf: 2, villager: 2, seer: 1, witch: 1, guard: 1 }),
    firstPhase: 'night',
    nightKill: 'vote-in-turn',
    seerResult: 'team',
    seerRepeat: true,
    doctorSelf: true,
    doctorRepeat: true,
    guardSelf: true,
    guardRepeat: false,
    witchSelfSave: true,
    witchBothSameNight: true,
    debate: 'shuffled',
    debateTurns: 8,
    speechRounds: 1,
    maxBid: 4,
    mentionWeight: 2,
    voting: 'sequential',
    abstain: true,
    votesPublic: true,
    exile: 'plurality-none',
    winRule: 'villagers-dead',
    maxRounds: 20,
    roundCap: 'draw',
    revealOnDeath: false,
  },
};

function checkComposition(v: JsonValue): string | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `must be an object {role: count} with roles ${ROLE_NAMES.join(', ')}`;
  for (const [k, n] of Object.entries(v)) {
    if (!(ROLE_NAMES as readonly string[]).includes(k)) return `has unknown role "${k}" (roles: ${ROLE_NAMES.join(', ')})`;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return `count of "${k}" must be a non-negative integer`;
  }
  return checkCounts(comp(v as Partial<Composition>));
}

function checkCounts(c: Composition): string | null {
  const total = ROLE_NAMES.reduce((s, r) => s + c[r], 0);
  if (total < 3 || total > MAX_SEATS) return `must have 3..${MAX_SEATS} players in all (got ${total})`;
  if (c.werewolf < 1) return 'needs at least 1 werewolf';
  if (c.werewolf >= total - c.werewolf) return `needs fewer werewolves than other players (got ${c.werewolf} of ${total})`;
  for (const r of SINGLETON_ROLES) if (c[ROLE_NAMES[r]] > 1) return `allows at most 1 ${ROLE_NAMES[r]}`;
  return null;
}

function checkRoles(v: JsonValue): string | null {
  if (!Array.isArray(v)) return 'must be an array of role names, one per seat';
  for (const r of v) if (typeof r !== 'string' || !(ROLE_NAMES as readonly string[]).includes(r)) return `has unknown role ${JSON.stringify(r)} (roles: ${ROLE_NAMES.join(', ')})`;
  return checkCounts(countRoles(v as RoleName[]));
}

function countRoles(roles: readonly RoleName[]): Composition {
  const c = comp({});
  for (const r of roles) c[r]++;
  return c;
}

const fromPreset = ' (default: from the preset)';

/** The parameter schema. Only `preset` has a schema default; every flag left out comes from the preset. */
export const PARAM_SCHEMA: ParamSchema = {
  preset: { type: 'enum', values: PRESETS, default: 'arena', description: 'published rule set filling every flag below' },
  composition: { type: 'json', check: checkComposition, description: `role counts {werewolf, villager, seer, doctor, witch, guard}${fromPreset}` },
  roles: { type: 'json', check: checkRoles, description: 'role per seat, e.g. ["werewolf","villager",...] (default: dealt at random from the seed)' },
  firstPhase: { type: 'enum', values: ['night', 'day'], description: `the game starts with this phase${fromPreset}` },
  nightKill: { type: 'enum', values: ['random-wolf', 'propose-decide', 'vote-in-turn'], description: `how wolves choose the victim${fromPreset}` },
  seerResult: { type: 'enum', values: ['role', 'team'], description: `seer learns the exact role or only werewolf / not${fromPreset}` },
  seerRepeat: { type: 'boolean', description: `seer may check a player checked before${fromPreset}` },
  doctorSelf: { type: 'boolean', description: `doctor may protect itself${fromPreset}` },
  doctorRepeat: { type: 'boolean', description: `doctor may protect the same player two nights running${fromPreset}` },
  guardSelf: { type: 'boolean', description: `guard may guard itself${fromPreset}` },
  guardRepeat: { type: 'boolean', description: `guard may guard the same player two nights running${fromPreset}` },
  witchSelfSave: { type: 'boolean', description: `witch may use the antidote on herself${fromPreset}` },
  witchBothSameNight: { type: 'boolean', description: `witch may use both potions in one night${fromPreset}` },
  debate: { type: 'enum', values: ['bidding', 'seat-order', 'shuffled'], description: `who speaks when during the day${fromPreset}` },
  debateTurns: { type: 'integer', min: 0, max: 50, description: `speaking turns per day in a bidding debate (arena: 8)${fromPreset}` },
  speechRounds: { type: 'integer', min: 0, max: 5, description: `times each living player speaks per day (seat-order, shuffled)${fromPreset}` },
  maxBid: { type: 'integer', min: 1, max: MAX_BID_LIMIT, description: `bids are 0..maxBid${fromPreset}` },
  mentionWeight: { type: 'integer', min: 1, max: 4, description: `draw weight of top bidders named in the last utterance${fromPreset}` },
  voting: { type: 'enum', values: ['simultaneous', 'sequential'], description: `votes cast at once or in speaking order${fromPreset}` },
  abstain: { type: 'boolean', description: `voters may abstain${fromPreset}` },
  votesPublic: { type: 'boolean', description: `who voted for whom is announced (sequential votes are always public)${fromPreset}` },
  exile: { type: 'enum', values: ['majority', 'plurality-random', 'plurality-none'], description: `exile rule: strict majority of the living, plurality with random tie-break, or plurality where ties exile nobody${fromPreset}` },
  winRule: { type: 'enum', values: ['parity', 'majority', 'villagers-dead'], description: `werewolves win when wolves >= others, wolves > others, or all plain villagers are dead${fromPreset}` },
  maxRounds: { type: 'integer', min: 1, max: 100, description: `the game ends after this many rounds${fromPreset}` },
  roundCap: { type: 'enum', values: ['random', 'draw'], description: `result at the round cap: a random winning team or a draw${fromPreset}` },
  revealOnDeath: { type: 'boolean', description: `the role of a dead player is announced${fromPreset}` },
};

const FLAG_KEYS = Object.keys(PRESET_FLAGS.arena) as (keyof Flags)[];
const cache = new WeakMap<object, { rules: Rules; roles: RoleName[] | null }>();

/**
 * Rules from resolved params: the preset's flags, overridden by every flag given explicitly.
 * Throws ParamError (naming the field) when fields contradict each other. Cached per params object.
 * The rules are public (every observation holds them), so they never include the `roles` deal.
 */
export function resolveRules(params: Params): Rules {
  return resolveAll(params).rules;
}

/** Roles fixed per seat by the `roles` param (hidden information: kept out of the rules), or null. */
export function fixedRoles(params: Params): RoleName[] | null {
  return resolveAll(params).roles;
}

function resolveAll(params: Params): { rules: Rules; roles: RoleName[] | null } {
  const hit = cache.get(params);
  if (hit) return hit;
  const presetName = (params.preset ?? 'arena') as PresetName;
  const preset = PRESET_FLAGS[presetName];
  if (!preset) throw new ParamError(ENV_ID, 'preset', `must be one of ${PRESETS.map((p) => JSON.stringify(p)).join(', ')} (got ${JSON.stringify(params.preset)})`);
  const flags = { ...preset } as Record<string, unknown>;
  for (const k of FLAG_KEYS) if (params[k] !== undefined && params[k] !== null) flags[k] = params[k];
  let composition = comp(flags.composition as Partial<Composition>);
  let roles: RoleName[] | null = null;
  if (Array.isArray(params.roles)) {
    roles = (params.roles as string[]).slice() as RoleName[];
    const counted = countRoles(roles);
    if (params.composition !== undefined && params.composition !== null) {
      const same = ROLE_NAMES.every((r) => counted[r] === composition[r]);
      if (!same) throw new ParamError(ENV_ID, 'roles', `do not match "composition" ${JSON.stringify(params.composition)} (give one of them, or make the counts agree)`);
    }
    composition = counted;
  }
  const problem = checkCounts(composition);
  if (problem) throw new ParamError(ENV_ID, roles ? 'roles' : 'composition', problem);
  const rules = { ...(flags as Flags), composition, preset: presetName, players: ROLE_NAMES.reduce((s, r) => s + composition[r], 0) } as Rules;
  if (rules.winRule === 'villagers-dead' && composition.villager < 1) {
    throw new ParamError(ENV_ID, 'winRule', '"villagers-dead" needs at least one plain villager in the composition');
  }
  const out = { rules, roles };
  cache.set(params, out);
  return out;
}

/**
 * Number of kill steps at the start of each night: one (a random wolf kills), two (the first
 * wolf proposes, the last decides), or one per wolf (the wolves vote in turn).
 */
export function killSteps(r: Rules): number {
  return r.nightKill === 'random-wolf' ? 1 : r.nightKill === 'propose-decide' ? 2 : r.composition.werewolf;
}

/** Steps of one night: the wolves' kill steps, then two witch steps when the game has a witch. */
export function nightSteps(r: Rules): number {
  return killSteps(r) + (r.composition.witch > 0 ? 2 : 0);
}

/** Upper bound on `step` calls in one game (meta.maxLength). */
export function maxSteps(r: Rules): number {
  const votes = r.voting === 'simultaneous' ? 1 : r.players;
  const talk = r.debate === 'bidding' ? 2 * r.debateTurns : r.speechRounds * r.players;
  return r.maxRounds * (nightSteps(r) + talk + votes) + 2;
}

/** Role codes present in the composition, as a bitmask (claims are legal for these roles). */
export function rolesPresentMask(r: Rules): number {
  let m = 0;
  ROLE_NAMES.forEach((name, i) => {
    if (r.composition[name] > 0) m |= 1 << i;
  });
  return m;
}

