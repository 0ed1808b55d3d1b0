/**
 * The checkpoints agents play from, cached by file: a league that plays its snapshots creates a
 * `neural` agent per match, and reading a checkpoint for each would cost a file read and a parse.
 * The cache is bounded (least recently used out) and keeps only what playing needs — the layout
 * and the weights, not the optimizer state or the training config — so a league whose snapshot
 * count keeps growing holds a fixed amount of weights in memory (issue 28: a long league's RSS
 * grew by every snapshot's checkpoint, optimizer state included). A file changed on disk
 * (another mtime) is read again.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCheckpoint, type Checkpoint } from './checkpoint';

/** What an agent needs of a checkpoint to play. */
export type PlayingCheckpoint = Pick<Checkpoint, 'id' | 'layout' | 'weights' | 'step'>;

/** Checkpoints kept (most recently used); a league's current opponents fit, the rest are re-read. */
export const CHECKPOINT_CACHE_ENTRIES = 16;

const cache = new Map<string, { mtimeMs: number; ckpt: PlayingCheckpoint }>();

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
  cache.delete(abs);
  cache.set(abs, { mtimeMs, ckpt });
  while (cache.size > CHECKPOINT_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return ckpt;
}

/** Files whose checkpoints are cached now, least recently used first (tests, diagnostics). */
export function cachedCheckpointFiles(): string[] {
  return [...cache.keys()];
}
