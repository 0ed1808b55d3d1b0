/**
 * Training configuration: every hyper-parameter with its default, validated with zod so a bad
 * value is answered with the field's name and what is allowed (`--config JSON` on the CLI).
 */
import { z } from 'zod';
import { MAX_ENVS_PER_BATCH } from './limits';

const positiveInt = z.number().int().positive();

/** Most episodes played in lockstep (`envsPerBatch`; src/train/limits.ts). */
export { MAX_ENVS_PER_BATCH };
/** Largest hidden layer. */
export const MAX_HIDDEN = 16_384;
/** Largest network (weights, the same again twice for Adam: about 800 MB at the limit). */
export const MAX_PARAMETERS = 50_000_000;
const nonNegInt = z.number().int().nonnegative();
const unit = z.number().min(0).max(1);

/** Schema of the training configuration (all fields optional; defaults below). */
export const TrainConfigSchema = z
  .object({
    /** ppo: clipped surrogate with GAE; grpo / rloo: REINFORCE with a group-relative baseline. */
    algorithm: z.enum(['ppo', 'grpo', 'rloo']).default('ppo'),
    seed: nonNegInt.default(0),
    /** Episodes collected per iteration. */
    episodesPerIteration: positiveInt.default(64),
    /**
     * Episodes played in lockstep during rollouts (vectorized self-play): every decision the
     * networks owe at one moment is computed in one batched forward pass. Speed only: the
     * results are the same for every value (see src/train/rollouts.ts).
     */
    envsPerBatch: positiveInt.max(MAX_ENVS_PER_BATCH).default(16),
    /**
     * Episodes sharing one start state (env seed): with grpo/rloo, the trajectories of one role
     * in those episodes form a group (several seats of one role in one episode, such as K solver
     * attempts, are one group even with groupSize 1). Default 8 for grpo/rloo, 1 for ppo.
     */
    groupSize: positiveInt.optional(),
    /**
     * grpo/rloo groups: "start" — trajectories of one role whose first observation is the same
     * (the K attempts at one puzzle; every challenger episode); "seed" — one group per seed group.
     */
    groupBy: z.enum(['start', 'seed']).default('start'),
    hidden: z.array(positiveInt.max(MAX_HIDDEN)).max(8).default([128, 128]),
    activation: z.enum(['relu', 'tanh']).default('relu'),
    /** One network for every trained role with a role one-hot input (one-model-all-roles) instead of one per group. */
    sharedNet: z.boolean().default(false),
    lr: z.number().positive().max(1).default(3e-4),
    lrSchedule: z.enum(['constant', 'linear', 'cosine']).default('constant'),
    minLr: z.number().nonnegative().default(0),
    warmupIterations: nonNegInt.default(0),
    gamma: unit.default(1),
    lambda: unit.default(0.95),
    clip: z.number().positive().max(10).default(0.2),
    /** Weight of the value loss; default 0.5 for ppo, 0 for grpo/rloo (they use no critic). */
    valueCoef: z.number().nonnegative().optional(),
    entropyCoef: z.number().nonnegative().default(0.01),
    maxGradNorm: z.number().nonnegative().default(0.5),
    /** Passes over each iteration's samples (ppo); grpo/rloo default to 1 (plain REINFORCE). */
    epochs: positiveInt.optional(),
    minibatchSize: positiveInt.default(256),
    /**
     * How updates run: "fused" — the whole minibatch step (forward, PPO loss, backward,
     * clipping, Adam) in the fused WebAssembly SIMD module (src/train/fused; no tfjs); "host" —
     * a tfjs network with the hand-written backward, the loss gradient and (off native
     * backends) Adam in JS, reading the outputs back every minibatch; "device" — the loss as
     * tfjs ops, autodiff and Adam on the device, reading back once per epoch (the only way on
     * WebGPU; a candidate on any GPU); "auto" — fused on CPU backends (wasm, cpu, tfjs-node),
     * device where tensors cannot be read synchronously, else host.
     */
    update: z.enum(['auto', 'fused', 'host', 'device']).default('auto'),
    /**
     * Actor-learner overlap (`arena train`, Trainer.run): the fused update runs in a worker
     * thread while the next iteration's episodes are played with the weights from before it —
     * both cores busy, the policy one version behind (PPO's clipped ratio corrects the lag; each
     * iteration's `policyLag` is recorded). false (`--sync`): rollouts, then the update, bit for
     * bit reproducible as before.
     */
    overlap: z.boolean().default(false),
    /** Stop an iteration's epochs early when the approximate KL passes 1.5 × this (0: never). */
    targetKl: z.number().nonnegative().default(0),
    /** Normalize advantages over each iteration's batch (ppo). */
    normalizeAdvantages: z.boolean().default(true),
    /** Multiplies every return before learning (keeps value targets near 1). */
    rewardScale: z.number().positive().default(1),
    beta1: z.number().min(0).max(0.9999).default(0.9),
    beta2: z.number().min(0).max(0.99999).default(0.999),
    epsilon: z.number().positive().default(1e-8),
    /**
     * Which action indices the networks have outputs for: "all", "probe" (those legal for the
     * learner's roles in random playouts) or inclusive ranges per role {"solver": [[0, 90]]}.
     */
    actions: z.union([z.enum(['all', 'probe']), z.record(z.string(), z.array(z.tuple([nonNegInt, nonNegInt])))]).default('all'),
    /** Random playouts used by actions "probe". */
    probeEpisodes: positiveInt.default(200),
    /** Initial scale of the policy logits' weights (small = near-uniform start). */
    policyInitScale: z.number().positive().default(0.01),
    /**
     * Per-learner overrides by learner id (roles joined by "+"): entropy bonus, epochs, LR
     * multiplier, and `reward`: the proposer reward over each batch (proposer-reward.ts:
     * repetition penalty λ, near-duplicate similarity, outcomes of invalid proposals).
     */
    learners: z
      .record(
        z.string(),
        z
          .object({
            entropyCoef: z.number().nonnegative().optional(),
            epochs: positiveInt.optional(),
            lrScale: z.number().positive().optional(),
            reward: z
              .object({
                repetition: z.number().nonnegative().default(0),
                similarity: unit.default(0.75),
                invalidOutcomes: z.array(z.string().min(1)).default([]),
              })
              .strict()
              .optional(),
          })
          .strict(),
      )
      .default({}),
    /** Evaluate every N iterations (0: never) with `evalEpisodes` episodes per baseline. */
    evalEvery: nonNegInt.default(10),
    evalEpisodes: positiveInt.default(100),
    /** Greedy (argmax) play in evaluation instead of sampling. */
    evalGreedy: z.boolean().default(true),
    /**
     * Agent specs to evaluate against and to train against with `--opponents baselines`;
     * "self" evaluates the learners against themselves (self-play; not a training opponent).
     */
    baselines: z.array(z.string().min(1)).default(['random']),
    /** Agent spec per role for seats of roles no learner trains (default: the first baseline). */
    roleAgents: z.record(z.string(), z.string().min(1)).default({}),
    /** Checkpoint files (their policies play as opponents with `--opponents checkpoints`). */
    opponentCheckpoints: z.array(z.string().min(1)).default([]),
    /** Add a frozen snapshot of each learner to its opponent pool every N iterations. */
    snapshotEvery: positiveInt.default(10),
    /** Largest opponent pool per learner (oldest snapshots leave first). */
    poolSize: positiveInt.default(8),
    /** Save checkpoints every N iterations (and always at the end). */
    checkpointEvery: positiveInt.default(10),
  })
  .strict();

/** Training configuration as written (fields optional). */
export type TrainConfigInput = z.input<typeof TrainConfigSchema>;

/** Resolved training configuration. */
export type TrainConfig = Omit<z.output<typeof TrainConfigSchema>, 'groupSize' | 'epochs' | 'valueCoef'> & { groupSize: number; epochs: number; valueCoef: number };

/** A bad configuration value; the message names the field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Validates and fills in defaults; algorithm-dependent defaults (epochs, groupSize) included. */
export function resolveConfig(raw: unknown = {}): TrainConfig {
  const parsed = TrainConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const text = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(config)'}: ${i.message}`).join('; ');
    throw new ConfigError(`training config: ${text}`);
  }
  const c = parsed.data;
  const group = c.algorithm !== 'ppo';
  const groupSize = c.groupSize ?? (group ? 8 : 1);
  if (c.episodesPerIteration % groupSize !== 0) {
    throw new ConfigError(`training config: episodesPerIteration (${c.episodesPerIteration}) must be a multiple of groupSize (${groupSize})`);
  }
  return { ...c, groupSize, epochs: c.epochs ?? (group ? 1 : 4), valueCoef: c.valueCoef ?? (group ? 0 : 0.5) };
}
