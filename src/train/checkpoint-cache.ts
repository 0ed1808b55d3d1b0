/**
 * The checkpoints agents play from, cached by file: a league that plays its snapshots creates a
 * `neural` agent per match, and reading a checkpoint costs a file read, a JSON parse and a base64
 * decode (about 20 ms for a Deal-or-No-Deal snapshot on a loaded machine), so every snapshot in
 * play stays cached. The cache keeps only what playing needs — the layout and the weights, not
 * the optimizer state (twice the weights again) or the training config — and is bounded by the
 * bytes of weights it holds (least recently used out), so a league whose snapshot count keeps
 * growing levels off (issue 28: a long league's RSS grew by every snapshot's whole checkpoint).
 * A file changed on disk (another mtime) is read again.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCheckpoint, type Checkpoint } from './checkpoint';

/** What an agent needs of a checkpoint to play. */
export type PlayingCheckpoint = Pick<Checkpoint, 'id' | 'layout' | 'weights' | 'step'>;

/** Default bound of the cache: 32 MB of weights (about 200 Deal-or-No-Deal snapshots with two hidden layers of 64). */
export const DEFAULT_CHECKPOINT_CACHE_BYTES = 32 * 1024 * 1024;

let limit = DEFAULT_CHECKPOINT_CACHE_BYTES;
let held = 0;
const cache = new Map<string, { mtimeMs: number; bytes: number; ckpt: PlayingCheckpoint }>();

function drop(key: string): void {
  const e = cache.get(key);
  if (!e) return;
  held -= e.bytes;
  cache.delete(key);
}

/** The playing part of the checkpoint at `path`, from the cache when the file is unchanged. */
export function playingCheckpoint(path: string): PlayingCheckpoint {
  const abs = resolve(path);
  const mtimeMs = statSync(abs).mtimeMs;
  const hit = cache.get(abs);
  if (hit && hit.mtimeMs === mtimeMs) {
    // Map order is insertion order: re-inserting makes this the most recently used.
    cache.delete(abs);
    cache.set(abs, hit);
    return hit.ckpt;
  }
  const { id, layout, weights, step } = loadCheckpoint(abs);
  const ckpt: PlayingCheckpoint = { id, layout, weights, step };
  const bytes = weights.params.reduce((s, p) => s + p.byteLength, 0);
  drop(abs);
  cache.set(abs, { mtimeMs, bytes, ckpt });
  held += bytes;
  // Evict the least recently used, never the one just read.
  for (const key of cache.keys()) {
    if (held <= limit || key === abs) break;
    drop(key);
  }
  return ckpt;
}

/** The cache's files (least recently used first) and the bytes of weights it holds (tests, diagnostics). */
export function checkpointCacheState(): { files: string[]; bytes: number; limit: number } {
  return { files: [...cache.keys()], bytes: held, limit };
}

/** Sets the cache's bound in bytes of weights (evicting at the next read); returns the previous bound. */
export function setCheckpointCacheBytes(bytes: number): number {
  if (!(Number.isFinite(bytes) && bytes >= 0)) throw new Error(`checkpoint cache: the bound must be a number of bytes >= 0, got ${String(bytes)}`);
  const previous = limit;
  limit = bytes;
  return previous;
}
