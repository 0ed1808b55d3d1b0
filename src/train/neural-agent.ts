/**
 * `neural`: plays with a policy network saved by `arena train` (a checkpoint file), in any
 * seat of a role the network was trained for. Options (`neural:{"checkpoint":"FILE"}`):
 * - `checkpoint` (required): path to a checkpoint JSON file;
 * - `mode`: "greedy" (default; the most probable legal action) or "sample" (draws from the
 *   masked policy with the seat's seeded rng, so matches stay reproducible);
 * - `temperature` (sampling only, default 1).
 * Acting runs the network in plain JS (no tfjs needed) and never picks an illegal action.
 */
import type { Agent, AgentFactory, AgentOptions } from '../core/agent';
import { playingCheckpoint, type PlayingCheckpoint } from './checkpoint-cache';
import { checkLayoutFor, PolicyModel } from './policy-model';

/** Options of the neural agent. */
export interface NeuralOptions {
  checkpoint: string;
  mode?: 'greedy' | 'sample';
  temperature?: number;
}

/** Reads and checks the agent options; throws an error naming the bad option. */
export function parseNeuralOptions(options: Record<string, unknown> | undefined): NeuralOptions {
  const o = options ?? {};
  if (typeof o.checkpoint !== 'string' || !o.checkpoint) {
    throw new Error('neural agent: option "checkpoint" (path to a checkpoint file) is required, e.g. neural:{"checkpoint":"runs/x/checkpoints/solver-latest.json"}');
  }
  if (o.mode !== undefined && o.mode !== 'greedy' && o.mode !== 'sample') throw new Error(`neural agent: option "mode" must be "greedy" or "sample", got ${JSON.stringify(o.mode)}`);
  if (o.temperature !== undefined && !(typeof o.temperature === 'number' && o.temperature > 0)) {
    throw new Error(`neural agent: option "temperature" must be a positive number, got ${JSON.stringify(o.temperature)}`);
  }
  return { checkpoint: o.checkpoint, mode: o.mode as NeuralOptions['mode'], temperature: o.temperature as number | undefined };
}

/** A neural agent from an already loaded checkpoint. */
export function neuralAgentFrom(ckpt: PlayingCheckpoint, opts: Omit<NeuralOptions, 'checkpoint'> & { name?: string }, { env }: Pick<AgentOptions, 'env'>): Agent {
  const encoder = checkLayoutFor(ckpt.layout, env);
  const model = new PolicyModel(ckpt.layout, encoder, ckpt.weights);
  const sample = opts.mode === 'sample';
  const temperature = opts.temperature ?? 1;
  return {
    name: opts.name ?? `neural(${ckpt.id}@${ckpt.step})`,
    act(obs, legal, ctx) {
      model.prepare(obs, legal, ctx.role);
      return model.decide(sample ? ctx.rng : null, temperature).action;
    },
  };
}

/** The `neural` agent factory. */
export const neuralAgent: AgentFactory = {
  name: 'neural',
  description: 'a trained policy network from a checkpoint: neural:{"checkpoint":"FILE","mode":"greedy"|"sample"}',
  options: {
    checkpoint: { type: 'string', description: 'path to a checkpoint file (required)' },
    mode: { type: 'enum', values: ['greedy', 'sample'], default: 'greedy', description: 'the most probable legal action, or a draw from the masked policy' },
    temperature: { type: 'number', min: 0, default: 1, description: 'sampling temperature (> 0)' },
  },
  create(options) {
    const opts = parseNeuralOptions(options.options);
    return neuralAgentFrom(playingCheckpoint(opts.checkpoint), opts, options);
  },
};
