/**
 * A policy/value network bound to an env's encoder and to the roles it plays: turns an
 * observation + legal actions into a masked action distribution, an action and a value.
 * Pure JS (no tfjs): the `neural` agent and the rollout workers act through it.
 *
 * Input = encoder.encode(observation), followed by a one-hot of the seat's role when the
 * network serves several roles (role conditioning). Output = numActions logits, then V(s).
 */
import type { Encoder } from '../core/env';
import type { Rng } from '../core/rng';
import { fillMask, greedyIndex, maskedSoftmax, sampleIndex } from './masked-policy';
import { MlpForward, type MlpWeights } from './mlp';

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
}

/** Input width of a network with this layout. */
export function inputSize(layout: PolicyLayout): number {
  return layout.obsSize + (layout.roleInput ? layout.roles.length : 0);
}

/** One decision: the chosen index and action, its log-probability, V(s) and the entropy. */
export interface PolicyStep {
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
  return encoder;
}

/** A policy network ready to act. Reuses its buffers: not re-entrant (one decision at a time). */
export class PolicyModel {
  readonly input: Float32Array;
  readonly mask: Float32Array;
  readonly probs: Float32Array;
  private forward: MlpForward;
  private readonly obsView: Float32Array;

  constructor(
    readonly layout: PolicyLayout,
    readonly encoder: Encoder<unknown, unknown>,
    weights: MlpWeights,
  ) {
    const n = inputSize(layout);
    if (weights.spec.inputSize !== n) throw new PolicyLayoutError(`network input is ${weights.spec.inputSize} wide, the layout needs ${n}`);
    if (weights.spec.outputSize !== layout.numActions + 1) throw new PolicyLayoutError(`network output is ${weights.spec.outputSize} wide, the layout needs ${layout.numActions + 1}`);
    this.input = new Float32Array(n);
    this.obsView = this.input.subarray(0, layout.obsSize);
    this.mask = new Float32Array(layout.numActions);
    this.probs = new Float32Array(layout.numActions);
    this.forward = new MlpForward(weights);
  }

  /** The weights acted with (shared, not copied). */
  get weights(): MlpWeights {
    return this.forward.weights;
  }

  /** Swaps in new weights (same spec). */
  setWeights(weights: MlpWeights): void {
    this.forward = new MlpForward(weights);
  }

  /** Fills `input` and `mask` for a decision; throws when the role is not this network's or nothing legal has an index. */
  prepare(obs: unknown, legal: readonly unknown[] | null, role: string): void {
    const { layout } = this;
    if (legal === null) throw new PolicyLayoutError(`${layout.env}: a neural policy needs a finite legal action list`);
    const r = layout.roles.indexOf(role);
    if (r < 0) throw new PolicyLayoutError(`this network plays ${layout.roles.join(', ')}, not "${role}"`);
    this.input.fill(0);
    const encoded = this.encoder.encode(obs, this.obsView);
    if (encoded !== this.obsView) {
      if (encoded.length !== layout.obsSize) throw new PolicyLayoutError(`encoder returned ${encoded.length} values, expected ${layout.obsSize}`);
      this.obsView.set(encoded);
    }
    if (layout.roleInput) this.input[layout.obsSize + r] = 1;
    const count = fillMask(this.mask, legal, (a) => this.encoder.actionIndex(a));
    if (count === 0) throw new PolicyLayoutError(`${layout.env}: none of the ${legal.length} legal actions has an action index`);
  }

  /**
   * Chooses an action: sampled from the masked softmax (`rng` given) or the most probable one
   * (`rng` null). Call {@link prepare} first.
   */
  decide(rng: Rng | null, temperature = 1): PolicyStep {
    const out = this.forward.run(this.input);
    const A = this.layout.numActions;
    let lse: number;
    if (temperature !== 1) {
      const scaled = new Float32Array(A);
      for (let i = 0; i < A; i++) scaled[i] = out[i] / temperature;
      lse = maskedSoftmax(scaled, this.mask, this.probs, 0, A);
    } else lse = maskedSoftmax(out, this.mask, this.probs, 0, A);
    const index = rng ? sampleIndex(this.probs, rng) : greedyIndex(this.probs);
    let h = 0;
    for (let i = 0; i < A; i++) if (this.probs[i] > 0) h -= this.probs[i] * Math.log(this.probs[i]);
    const logp = (temperature !== 1 ? out[index] / temperature : out[index]) - lse;
    return { index, action: this.encoder.action(index), logp, value: out[A], entropy: h };
  }
}
