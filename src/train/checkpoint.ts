/**
 * Checkpoints: one JSON file per network holding its weights (base64 little-endian float32,
 * bit-exact), the network spec and policy layout (env id, roles, encoder sizes), the training
 * step, the Adam state (so training resumes exactly) and the training config.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JsonValue } from '../core/json';
import type { AdamState } from './adam';
import { paramShapes, validateSpec, type MlpSpec, type MlpWeights } from './mlp';
import type { PolicyLayout } from './policy-model';

/** Format tag written into every checkpoint. */
export const CHECKPOINT_FORMAT = 'selfplay-arena/checkpoint-v1';

/** A checkpoint in memory. */
export interface Checkpoint {
  /** Learner id (its roles joined by "+"). */
  id: string;
  layout: PolicyLayout;
  weights: MlpWeights;
  /** Training iterations completed when saved. */
  step: number;
  /** Optimizer steps taken. */
  updates: number;
  optimizer?: AdamState;
  /** Env params the network was trained with. */
  params?: { [key: string]: JsonValue | undefined };
  /** The training config (for the record and for resuming). */
  config?: JsonValue;
  createdAt?: string;
}

/** A file that is not a readable checkpoint; the message says what is wrong. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

function encodeF32(a: Float32Array): string {
  const copy = new Float32Array(a); // own buffer, little-endian on every platform we run on
  return Buffer.from(copy.buffer, copy.byteOffset, copy.byteLength).toString('base64');
}

function decodeF32(text: string, expected: number, what: string): Float32Array {
  const buf = Buffer.from(text, 'base64');
  if (buf.length !== expected * 4) throw new CheckpointError(`${what}: expected ${expected} floats, found ${buf.length / 4}`);
  const out = new Float32Array(expected);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

/** The JSON text of a checkpoint. */
export function serializeCheckpoint(c: Checkpoint): string {
  const doc = {
    format: CHECKPOINT_FORMAT,
    id: c.id,
    env: c.layout.env,
    roles: c.layout.roles,
    step: c.step,
    updates: c.updates,
    layout: c.layout,
    spec: c.weights.spec,
    weights: c.weights.params.map(encodeF32),
    optimizer: c.optimizer ? { step: c.optimizer.step, m: c.optimizer.m.map(encodeF32), v: c.optimizer.v.map(encodeF32) } : null,
    params: c.params ?? null,
    config: c.config ?? null,
    createdAt: c.createdAt ?? new Date().toISOString(),
  };
  return JSON.stringify(doc);
}

/** Parses checkpoint JSON text; `where` names the source in errors. */
export function parseCheckpoint(text: string, where = 'checkpoint'): Checkpoint {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new CheckpointError(`${where}: not JSON (${(e as Error).message})`);
  }
  if (!doc || doc.format !== CHECKPOINT_FORMAT) throw new CheckpointError(`${where}: not a ${CHECKPOINT_FORMAT} file`);
  const spec = doc.spec as MlpSpec;
  try {
    validateSpec(spec);
  } catch (e) {
    throw new CheckpointError(`${where}: ${(e as Error).message}`);
  }
  const layout = doc.layout as PolicyLayout;
  if (!layout || typeof layout.env !== 'string' || !Array.isArray(layout.roles)) throw new CheckpointError(`${where}: missing layout (env, roles)`);
  const shapes = paramShapes(spec);
  const rawW = doc.weights as unknown;
  if (!Array.isArray(rawW) || rawW.length !== shapes.length) throw new CheckpointError(`${where}: expected ${shapes.length} weight tensors`);
  const sizes = shapes.map((s) => s.reduce((a, b) => a * b, 1));
  const params = rawW.map((t, i) => decodeF32(String(t), sizes[i], `${where}: weight ${i}`));
  const opt = doc.optimizer as { step: number; m: string[]; v: string[] } | null;
  const optimizer: AdamState | undefined = opt
    ? { step: opt.step, m: opt.m.map((t, i) => decodeF32(t, sizes[i], `${where}: adam m ${i}`)), v: opt.v.map((t, i) => decodeF32(t, sizes[i], `${where}: adam v ${i}`)) }
    : undefined;
  return {
    id: String(doc.id),
    layout,
    weights: { spec, params },
    step: Number(doc.step),
    updates: Number(doc.updates),
    optimizer,
    params: (doc.params ?? undefined) as Checkpoint['params'],
    config: (doc.config ?? undefined) as JsonValue | undefined,
    createdAt: typeof doc.createdAt === 'string' ? doc.createdAt : undefined,
  };
}

/** Writes a checkpoint file atomically (temp file + rename), creating folders as needed. */
export function saveCheckpoint(path: string, c: Checkpoint): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, serializeCheckpoint(c));
  renameSync(tmp, path);
}

/** Reads a checkpoint file. */
export function loadCheckpoint(path: string): Checkpoint {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CheckpointError(`cannot read checkpoint ${path}: ${(e as Error).message}`);
  }
  return parseCheckpoint(text, path);
}
