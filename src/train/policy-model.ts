/**
 * A policy/value network bound to an env's encoder and to the roles it plays: turns an
 * observation + legal actions into a masked action distribution, an action and a value.
 * No tfjs: the forward pass runs in the fused WebAssembly module (fused/fused-net.ts: the same
 * kernels as the fused update, one call for a whole batch of rows); the `neural` agent and the
 * rollouts act through it.
 *
 * Input = encoder.encode(observation), followed by a one-hot of the seat's role when the
 * network serves several roles (role conditioning). Output = one logit per output unit, then
 * V(s). Output units are the encoder's action indices, or the subset `layout.actions` of them
 * (a countdown solver needs 91 of the env's 1,193 indices).
 */
import type { Encoder, Env } from '../core/env';
import type { Rng } from '../core/rng';
import { fillMask, greedyIndex, listLegal, sampleIndex, softmaxOver } from './masked-policy';
import { FusedNet } from './fused/fused-net';
import type { MlpWeights } from './mlp';

/** How a policy model is wired to its env (stored in checkpoints). */
export interface PolicyLayout {
  /** Env id the network was trained on. */
  env: string;
  /** Roles this network plays. */
  roles: string[];
  /** Whether a role one-hot (over `roles`) follows the encoded observation. */
  roleInput: boolean;
  /** encoder.size. */
  obsSize: number;
  /** encoder.numActions. */
  numActions: number;
  /** The action indices the network has outputs for (sorted); absent = all of them. */
  actions?: number[];
}

/** Number of policy outputs (logits) of a layout. */
export function outputUnits(layout: PolicyLayout): number {
  return layout.actions ? layout.actions.length : layout.numActions;
}

/** Input width of a network with this layout. */
export function inputSize(layout: PolicyLayout): number {
  return layout.obsSize + (layout.roleInput ? layout.roles.length : 0);
}

/** One decision: the chosen output unit and action, its log-probability, V(s) and the entropy. */
export interface PolicyStep {
  /** Output unit (equals the action index when the layout has no action subset). */
  index: number;
  action: unknown;
  logp: number;
  value: number;
  entropy: number;
}

/** A layout/encoder mismatch (wrong env, encoder size or action count): the message says which. */
export class PolicyLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyLayoutError';
  }
}

/** Checks that `encoder` fits `layout`; throws PolicyLayoutError naming the difference. */
export function checkLayout(layout: PolicyLayout, envId: string, encoder: Encoder<unknown, unknown> | undefined): Encoder<unknown, unknown> {
  if (!encoder) throw new PolicyLayoutError(`${envId} has no encoder, so a neural policy cannot play it`);
  if (layout.env !== envId) throw new PolicyLayoutError(`the network was trained on ${layout.env}, not ${envId}`);
  if (encoder.size !== layout.obsSize) throw new PolicyLayoutError(`${envId}'s encoder makes ${encoder.size} inputs but the network expects ${layout.obsSize}`);
  if (encoder.numActions !== layout.numActions) throw new PolicyLayoutError(`${envId}'s encoder has ${encoder.numActions} actions but the network has ${layout.numActions}`);
  if (layout.actions && layout.actions.some((a, i) => !Number.isInteger(a) || a < 0 || a >= layout.numActions || (i > 0 && a <= layout.actions![i - 1]))) {
    throw new PolicyLayoutError('layout.actions must be increasing action indices within the encoder\'s range');
  }
  return encoder;
}

/**
 * Checks that a network with `layout` can play `env`: {@link checkLayout}, and every role it
 * plays is a role of the env. Throws PolicyLayoutError naming the difference.
 */
export function checkLayoutFor(layout: PolicyLayout, env: Pick<Env, 'meta' | 'encoder'>): Encoder<unknown, unknown> {
  const encoder = checkLayout(layout, env.meta.id, env.encoder);
  const known = env.meta.roles.map((r) => r.name);
  const unknown = layout.roles.filter((r) => !known.includes(r));
  if (unknown.length) throw new PolicyLayoutError(`the network plays ${unknown.join(', ')}, which ${env.meta.id} does not have (roles: ${known.join(', ')})`);
  return encoder;
}

/**
 * Legal action indices that an observation states through the encoder's `legal` member (open
 * action sets played through indices, such as Countdown's step mode), or null.
 */
export function legalFromObservation(encoder: Encoder<unknown, unknown>, obs: unknown): number[] | null {
  const legal = encoder.legal?.(obs);
  return Array.isArray(legal) && legal.every((x) => Number.isInteger(x)) ? [...legal] : null;
}

/** A policy network ready to act. Reuses its buffers: not re-entrant (one decision at a time). */
export class PolicyModel {
  readonly input: Float32Array;
  readonly mask: Float32Array;
  readonly probs: Float32Array;
  /** Legal output units of the current decision (scratch of {@link choose}). */
  private readonly legal: Int32Array;
  private net: FusedNet;
  private current: MlpWeights;
  /** The weights changed since they were copied into the module. */
  private stale = false;
  private readonly obsView: Float32Array;
  /** Output unit of each action index (-1: no output). */
  private readonly unitOf: Int32Array;
  private readonly units: number;

  constructor(
    readonly layout: PolicyLayout,
    readonly encoder: Encoder<unknown, unknown>,
    weights: MlpWeights,
  ) {
    const n = inputSize(layout);
    if (weights.spec.inputSize !== n) throw new PolicyLayoutError(`network input is ${weights.spec.inputSize} wide, the layout needs ${n}`);
    this.units = outputUnits(layout);
    if (weights.spec.outputSize !== this.units + 1) throw new PolicyLayoutError(`network output is ${weights.spec.outputSize} wide, the layout needs ${this.units + 1}`);
    this.unitOf = new Int32Array(layout.numActions).fill(-1);
    if (layout.actions) layout.actions.forEach((a, u) => (this.unitOf[a] = u));
    else this.unitOf.forEach((_, i) => (this.unitOf[i] = i));
    this.input = new Float32Array(n);
    this.obsView = this.input.subarray(0, layout.obsSize);
    this.mask = new Float32Array(this.units);
    this.probs = new Float32Array(this.units);
    this.legal = new Int32Array(this.units);
    this.current = weights;
    this.net = new FusedNet(weights, { rows: 1 });
  }

  /** The weights acted with (shared, not copied: after changing them in place, call {@link setWeights}). */
  get weights(): MlpWeights {
    return this.current;
  }

  /**
   * Acts with `weights` (same spec) from now on; also the signal that the current weights
   * changed in place. They are copied into the module at the next forward pass.
   */
  setWeights(weights: MlpWeights): void {
    if (JSON.stringify(weights.spec) !== JSON.stringify(this.current.spec)) throw new PolicyLayoutError('setWeights: the new weights have another spec');
    this.current = weights;
    this.stale = true;
  }

  /** The module's network, with the current weights. */
  private forward(): FusedNet {
    if (this.stale) {
      this.net.setWeights(this.current);
      this.stale = false;
    }
    return this.net;
  }

  /**
   * Fills `input` and `mask` for a decision; throws when the role is not this network's or
   * nothing legal has an index. For open action sets (`legal` null) the legal action indices
   * are read from the observation's `legal` array when the env provides one there.
   */
  prepare(obs: unknown, legal: readonly unknown[] | null, role: string): void {
    const { layout } = this;
    legal ??= legalFromObservation(this.encoder, obs);
    if (legal === null) throw new PolicyLayoutError(`${layout.env}: a neural policy needs a finite legal action list (legalActions, or the encoder's legal(obs))`);
    const r = layout.roles.indexOf(role);
    if (r < 0) throw new PolicyLayoutError(`this network plays ${layout.roles.join(', ')}, not "${role}"`);
    this.input.fill(0);
    const encoded = this.encoder.encode(obs, this.obsView);
    if (encoded !== this.obsView) {
      if (encoded.length !== layout.obsSize) throw new PolicyLayoutError(`encoder returned ${encoded.length} values, expected ${layout.obsSize}`);
      this.obsView.set(encoded);
    }
    if (layout.roleInput) this.input[layout.obsSize + r] = 1;
    const count = fillMask(this.mask, legal, (a) => {
      const i = this.encoder.actionIndex(a);
      return i >= 0 && i < this.unitOf.length ? this.unitOf[i] : -1;
    });
    if (count === 0) throw new PolicyLayoutError(`${layout.env}: none of the ${legal.length} legal actions has an output in this network (action index or action subset)`);
  }

  /**
   * Chooses an action: sampled from the masked softmax (`rng` given) or the most probable one
   * (`rng` null). Call {@link prepare} first.
   */
  decide(rng: Rng | null, temperature = 1): PolicyStep {
    return this.choose(this.forward().forward(this.input, 1, this.mask, this.units), 0, this.mask, 0, rng, temperature);
  }

  /**
   * The network's outputs for `rows` inputs laid out one after another in `x` (the batched
   * acting path, see decision-batcher.ts), with their legality masks (`rows × units`, row after
   * row; logits of illegal actions may be left uncomputed, read 0): `rows × (units + 1)`
   * values, each row bit for bit what {@link decide} computes for that input alone. Owned by
   * the model; overwritten by the next forward pass.
   */
  forwardRows(x: Float32Array, rows: number, masks: Float32Array): Float32Array {
    return this.forward().forward(x, rows, masks, this.units);
  }

  /**
   * The decision for one row of network outputs: logits at `out[offset .. offset + units)`,
   * then V(s); legality from `mask[maskOffset .. maskOffset + units)`. What {@link decide}
   * does after its forward pass.
   */
  choose(out: Float32Array, offset: number, mask: Float32Array, maskOffset: number, rng: Rng | null, temperature = 1): PolicyStep {
    const A = this.units;
    let logits: ArrayLike<number> = out;
    let at = offset;
    if (temperature !== 1) {
      const scaled = new Float32Array(A);
      for (let i = 0; i < A; i++) scaled[i] = out[offset + i] / temperature;
      logits = scaled;
      at = 0;
    }
    // the legal units are listed once; sampling and the entropy walk only those
    const legal = this.legal;
    const count = listLegal(mask, maskOffset, A, legal);
    const lse = softmaxOver(logits, at, legal, count, this.probs, A);
    const index = rng ? sampleIndex(this.probs, rng, legal, count) : greedyIndex(this.probs, legal, count);
    // H = −Σ p log p with log p = logit − lse: no logarithm per action
    let h = lse;
    for (let k = 0; k < count; k++) {
      const p = this.probs[legal[k]];
      if (p > 0) h -= p * logits[at + legal[k]];
    }
    const logit = out[offset + index];
    const logp = (temperature !== 1 ? logit / temperature : logit) - lse;
    const actionIndex = this.layout.actions ? this.layout.actions[index] : index;
    return { index, action: this.encoder.action(actionIndex), logp, value: out[offset + A], entropy: h };
  }
}
