import type { ActionCheck, Env, EnvCapabilities, EnvDefinition, SeatInfo, Utility } from './env';
import { jsonEqual } from './json';
import { resolveParams, type Params } from './params';

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*-v\d+$/;
const REQUIRED = ['init', 'toAct', 'step', 'isTerminal', 'returns', 'outcome', 'observe'] as const;

/** A malformed env definition (missing member, bad meta); the message names the member. */
export class EnvDefinitionError extends Error {
  constructor(where: string, problem: string) {
    super(`env ${where}: ${problem}`);
    this.name = 'EnvDefinitionError';
  }
}

/** True when `action` is in `legal` (identity for primitives, structural for JSON objects). */
/**
 * The default `render` of an env that defines none: pretty JSON. `env.render !== renderAsJson`
 * tells whether the env has words of its own for its observations.
 */
export function renderAsJson(obs: unknown): string {
  return JSON.stringify(obs, null, 2);
}

export function containsAction(legal: readonly unknown[], action: unknown): boolean {
  if (action === null || typeof action !== 'object') return legal.indexOf(action) >= 0;
  for (const a of legal) if (jsonEqual(a, action)) return true;
  return false;
}

function describeAction(action: unknown): string {
  try {
    const text = JSON.stringify(action);
    return text === undefined ? String(action) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(action);
  }
}

/**
 * Checks an author's definition and fills the optional members with their documented
 * defaults. Throws EnvDefinitionError naming what is missing or malformed.
 */
export function normalizeEnv<S, A, O>(def: EnvDefinition<S, A, O>): Env<S, A, O> {
  if (!def || typeof def !== 'object') throw new EnvDefinitionError('(module)', 'is not an object');
  const meta = def.meta;
  const id = meta && typeof meta.id === 'string' ? meta.id : '(no meta.id)';
  if (!meta) throw new EnvDefinitionError(id, 'missing "meta"');
  if (!ID_PATTERN.test(id)) throw new EnvDefinitionError(id, 'meta.id must look like "name-v1" (lowercase, version suffix)');
  for (const m of REQUIRED) {
    if (typeof (def as unknown as Record<string, unknown>)[m] !== 'function') {
      throw new EnvDefinitionError(id, `missing function "${m}"`);
    }
  }
  if (!Array.isArray(meta.roles) || meta.roles.length === 0) throw new EnvDefinitionError(id, 'meta.roles must list at least one role');
  for (const r of meta.roles) {
    if (!r || typeof r.name !== 'string' || !Number.isInteger(r.count) || r.count < 0) {
      throw new EnvDefinitionError(id, `meta.roles entry ${JSON.stringify(r)} needs a name and an integer count`);
    }
  }
  if (meta.dynamics !== 'sequential' && meta.dynamics !== 'simultaneous') {
    throw new EnvDefinitionError(id, 'meta.dynamics must be "sequential" or "simultaneous"');
  }
  if (meta.information !== 'perfect' && meta.information !== 'imperfect') {
    throw new EnvDefinitionError(id, 'meta.information must be "perfect" or "imperfect"');
  }
  if (typeof meta.chance !== 'boolean') throw new EnvDefinitionError(id, 'meta.chance must be true or false');
  if (!meta.params || typeof meta.params !== 'object') throw new EnvDefinitionError(id, 'meta.params must be a schema object ({} for none)');
  if (meta.maxLength === undefined) throw new EnvDefinitionError(id, 'meta.maxLength is required');
  if (meta.utility === undefined) throw new EnvDefinitionError(id, 'meta.utility is required');
  if (!def.legalActions && !def.validateAction) {
    throw new EnvDefinitionError(id, 'needs "legalActions" (finite action sets) or "validateAction" (open ones)');
  }

  const capabilities = inferCapabilities(id, def);

  const defaultSeats: SeatInfo[] = [];
  for (const r of meta.roles) for (let i = 0; i < r.count; i++) defaultSeats.push({ role: r.name, team: r.team ?? r.name });

  const legalActions = def.legalActions?.bind(def);
  const validateAction =
    def.validateAction?.bind(def) ??
    ((state: S, seat: number, action: unknown): ActionCheck => {
      if (!def.toAct(state).includes(seat)) return { ok: false, reason: `seat ${seat} is not to act` };
      const legal = legalActions!(state, seat);
      if (legal === null) return { ok: false, reason: 'open action set but the env defines no validateAction' };
      return containsAction(legal, action) ? { ok: true } : { ok: false, reason: `${describeAction(action)} is not a legal action` };
    });

  const utilityFor = (params: Params): Utility => (typeof meta.utility === 'function' ? meta.utility(params) : meta.utility);
  const maxLengthFor = (params: Params): number => (typeof meta.maxLength === 'function' ? meta.maxLength(params) : meta.maxLength);

  const env: Env<S, A, O> = {
    meta,
    init: def.init.bind(def),
    seats: def.seats?.bind(def) ?? (() => defaultSeats),
    toAct: def.toAct.bind(def),
    effect: def.effect?.bind(def) ?? (() => null),
    sampleEffectResult: def.sampleEffectResult?.bind(def),
    capabilities,
    legalActions,
    validateAction,
    step: def.step.bind(def),
    isTerminal: def.isTerminal.bind(def),
    returns: def.returns.bind(def),
    outcome: def.outcome.bind(def),
    observe: def.observe.bind(def),
    render: def.render?.bind(def) ?? renderAsJson,
    sampleAction: def.sampleAction?.bind(def),
    summary: def.summary?.bind(def) ?? (() => null),
    actionVisibility: def.actionVisibility?.bind(def) ?? ((_s: S, seat: number) => ({ seat })),
    defaultAction: def.defaultAction?.bind(def),
    forfeitReturns: def.forfeitReturns?.bind(def),
    privateVariants: def.privateVariants?.bind(def),
    aggregate: def.aggregate?.bind(def),
    encoder: def.encoder,
    prompt: def.prompt,
    exploits: def.exploits,
    publicParams: def.publicParams?.bind(def),
    phase: def.phase?.bind(def),
    resolveParams: (raw?: unknown) => {
      const params = resolveParams(id, meta.params, raw);
      meta.checkParams?.(params);
      return params;
    },
    utilityFor,
    maxLengthFor,
  };
  return env;
}

/** The declared capabilities, checked for consistency, with the undeclared ones inferred from the members. */
function inferCapabilities(id: string, def: EnvDefinition): EnvCapabilities {
  const declared = def.meta.capabilities ?? {};
  if (typeof declared !== 'object' || declared === null) throw new EnvDefinitionError(id, 'meta.capabilities must be an object');
  const effects = declared.effects ?? [];
  if (!Array.isArray(effects) || effects.some((k) => typeof k !== 'string' || !k)) {
    throw new EnvDefinitionError(id, 'meta.capabilities.effects must list effect kinds (non-empty strings)');
  }
  if (effects.length && (typeof def.effect !== 'function' || typeof def.sampleEffectResult !== 'function')) {
    throw new EnvDefinitionError(id, 'an env with effects needs "effect" and "sampleEffectResult" functions');
  }
  const normalized = 'resolveParams' in def; // re-registering a normalized env: its default `effect` is fine
  if (!effects.length && typeof def.effect === 'function' && !normalized) {
    throw new EnvDefinitionError(id, 'defines "effect" but meta.capabilities.effects lists no effect kind');
  }
  const rewards = declared.rewards ?? 'terminal';
  if (rewards !== 'terminal' && rewards !== 'per-decision') throw new EnvDefinitionError(id, 'meta.capabilities.rewards must be "terminal" or "per-decision"');
  const actions = declared.actions ?? (def.legalActions ? (def.validateAction ? 'mixed' : 'finite') : 'open');
  if (actions !== 'finite' && actions !== 'open' && actions !== 'mixed') throw new EnvDefinitionError(id, 'meta.capabilities.actions must be "finite", "open" or "mixed"');
  if (actions === 'finite' && !def.legalActions) throw new EnvDefinitionError(id, 'meta.capabilities.actions is "finite" but the env has no legalActions');
  const tries = declared.tries ?? false;
  if (tries && rewards !== 'per-decision') throw new EnvDefinitionError(id, 'meta.capabilities.tries needs rewards: "per-decision"');
  const encoder = declared.encoder ?? def.encoder !== undefined;
  if (encoder && !def.encoder) throw new EnvDefinitionError(id, 'meta.capabilities.encoder is true but the env has no encoder');
  return { rewards, tries, actions, effects: [...effects], encoder };
}
