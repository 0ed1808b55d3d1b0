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
import { inputSize, outputUnits, type PolicyLayout } from './policy-model';

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

function decodeF32(text: unknown, expected: number, what: string): Float32Array {
  if (typeof text !== 'string') throw new CheckpointError(`${what}: expected base64 text`);
  const buf = Buffer.from(text, 'base64');
  if (buf.length !== expected * 4) throw new CheckpointError(`${what}: expected ${expected} floats, found ${Math.floor(buf.length / 4)}`);
  const out = new Float32Array(expected);
  new Uint8Array(out.buffer).set(buf);
  let bad = 0;
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) bad++;
  if (bad) throw new CheckpointError(`${what}: ${bad} of ${expected} values are not finite (NaN or Infinity): the training diverged or the file is damaged; use an earlier checkpoint`);
  return out;
}

const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;

/** Checks the stored policy layout's fields and that the network's shape fits it. */
function checkStoredLayout(raw: unknown, spec: MlpSpec, where: string): PolicyLayout {
  const l = raw as PolicyLayout;
  if (!l || typeof l !== 'object' || typeof l.env !== 'string' || !l.env) throw new CheckpointError(`${where}: missing layout.env (the env the network was trained on)`);
  if (!Array.isArray(l.roles) || !l.roles.length || l.roles.some((r) => typeof r !== 'string' || !r)) throw new CheckpointError(`${where}: layout.roles must list the roles the network plays`);
  if (typeof l.roleInput !== 'boolean') throw new CheckpointError(`${where}: layout.roleInput must be true or false`);
  for (const k of ['obsSize', 'numActions'] as const) {
    if (!isCount(l[k]) || l[k] === 0) throw new CheckpointError(`${where}: layout.${k} must be a positive integer`);
  }
  if (l.actions !== undefined && (!Array.isArray(l.actions) || l.actions.some((a, i) => !isCount(a) || a >= l.numActions || (i > 0 && a <= l.actions![i - 1])))) {
    throw new CheckpointError(`${where}: layout.actions must be increasing action indices below layout.numActions`);
  }
  if (spec.inputSize !== inputSize(l)) throw new CheckpointError(`${where}: the network takes ${spec.inputSize} inputs but its layout needs ${inputSize(l)}`);
  if (spec.outputSize !== outputUnits(l) + 1) throw new CheckpointError(`${where}: the network has ${spec.outputSize} outputs but its layout needs ${outputUnits(l) + 1} (${outputUnits(l)} actions and a value)`);
  return l;
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
    if (!spec || typeof spec !== 'object' || !Array.isArray(spec.hidden)) throw new Error('missing network spec (inputSize, hidden, outputSize, activation)');
    validateSpec(spec);
  } catch (e) {
    throw new CheckpointError(`${where}: ${(e as Error).message}`);
  }
  const layout = checkStoredLayout(doc.layout, spec, where);
  if (!isCount(doc.step) || !isCount(doc.updates)) throw new CheckpointError(`${where}: step and updates must be non-negative integers`);
  const shapes = paramShapes(spec);
  const rawW = doc.weights as unknown;
  if (!Array.isArray(rawW) || rawW.length !== shapes.length) throw new CheckpointError(`${where}: expected ${shapes.length} weight tensors`);
  const sizes = shapes.map((s) => s.reduce((a, b) => a * b, 1));
  const params = rawW.map((t, i) => decodeF32(t, sizes[i], `${where}: weight tensor ${i}`));
  const opt = doc.optimizer as { step: number; m: unknown[]; v: unknown[] } | null;
  if (opt && (!isCount(opt.step) || !Array.isArray(opt.m) || !Array.isArray(opt.v) || opt.m.length !== sizes.length || opt.v.length !== sizes.length)) {
    throw new CheckpointError(`${where}: optimizer state must have a step and ${sizes.length} m and v tensors`);
  }
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

/** Whether every weight is finite (no NaN or Infinity). */
export function finiteWeights(w: MlpWeights): boolean {
  for (const p of w.params) for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return false;
  return true;
}

/** Training stopped because a loss or the weights became non-finite; the message names the last good checkpoint. */
export class TrainingDivergedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainingDivergedError';
  }
}

/** The error that stops training when a learner's loss or weights stop being finite (nothing is saved after it). */
export function divergedError(learner: string, iteration: number, loss: number, lastGood: { file: string; iteration: number } | null): TrainingDivergedError {
  const keep = lastGood ? `the last good checkpoint is ${lastGood.file} (iteration ${lastGood.iteration})` : 'no checkpoint was saved';
  return new TrainingDivergedError(
    `training stopped: learner ${learner}'s ${Number.isFinite(loss) ? 'weights' : `loss (${loss})`} became non-finite in iteration ${iteration + 1} (rewards too large for rewardScale, or the learning rate too high?); ${keep}`,
  );
}

const describeNet = (layout: PolicyLayout, spec: MlpSpec) =>
  `${layout.env} ${layout.roles.join('+')} (${spec.inputSize} inputs, hidden [${spec.hidden.join(', ')}], ${spec.outputSize} outputs, ${spec.activation})`;

/** Checks that a loaded checkpoint holds exactly the network a learner has (env, roles, layout, shapes). */
export function checkFits(c: Checkpoint, layout: PolicyLayout, spec: MlpSpec, where: string): void {
  const canon = (o: object) => JSON.stringify(o, Object.keys(o).sort());
  if (canon(c.layout) !== canon(layout) || canon(c.weights.spec) !== canon(spec)) {
    throw new CheckpointError(`${where} holds a network for ${describeNet(c.layout, c.weights.spec)}, but this run's learner is ${describeNet(layout, spec)}`);
  }
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
