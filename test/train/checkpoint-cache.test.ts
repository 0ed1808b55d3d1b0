/**
 * The checkpoints `neural` agents play from (issue 28, a long league's memory): the cache is
 * bounded by the bytes of weights it holds (least recently used out) and keeps only the playing
 * part of each checkpoint (no optimizer state); a file rewritten on disk is read again.
 */
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkpointCacheState, DEFAULT_CHECKPOINT_CACHE_BYTES, playingCheckpoint, setCheckpointCacheBytes } from '../../src/train/checkpoint-cache';
import { saveCheckpoint } from '../../src/train/checkpoint';
import { initMlp } from '../../src/train/mlp';
import { neuralAgent } from '../../src/train/neural-agent';
import { fixtureEnv } from './fixtures/load';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-ckpt-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, step: number): string {
  const spec = { inputSize: 6, hidden: [8], outputSize: 4, activation: 'relu' as const };
  const weights = initMlp(spec, step, 0);
  const file = join(dir, name);
  const optimizer = { step: 3, m: weights.params.map((p) => new Float32Array(p.length)), v: weights.params.map((p) => new Float32Array(p.length)) };
  saveCheckpoint(file, { id: 'player', layout: { env: 'rock-paper-scissors-v1', roles: ['player'], roleInput: false, obsSize: 6, numActions: 3 }, weights, step, updates: 9, optimizer, config: { note: 'x'.repeat(1000) } });
  return file;
}

test('a league of many snapshots: the cache stays within its bound, most recently used kept, playing part only', () => {
  const rps = fixtureEnv('rps');
  const params = rps.resolveParams({ rounds: 1 });
  const files = Array.from({ length: 48 }, (_, i) => write(`snap-${i}.json`, i + 1));
  const first = playingCheckpoint(files[0]);
  const bytes = first.weights.params.reduce((s, p) => s + p.byteLength, 0);
  const keep = 16;
  const previous = setCheckpointCacheBytes(keep * bytes);
  try {
    expect(previous).toBe(DEFAULT_CHECKPOINT_CACHE_BYTES);
    for (const f of files) neuralAgent.create({ env: rps, params, seed: 0, options: { checkpoint: f } });
    const state = checkpointCacheState();
    expect(state.files).toEqual(files.slice(-keep).map((f) => resolve(f)));
    expect(state.bytes).toBe(keep * bytes);
    // a hit moves the file to the most recently used end
    const again = files[files.length - keep];
    playingCheckpoint(again);
    expect(checkpointCacheState().files.at(-1)).toBe(resolve(again));
    // a bound below one checkpoint still keeps the one just read
    setCheckpointCacheBytes(0);
    playingCheckpoint(files[0]);
    expect(checkpointCacheState().files).toEqual([resolve(files[0])]);
  } finally {
    setCheckpointCacheBytes(previous);
  }
  // only what playing needs is kept
  expect(Object.keys(first).sort()).toEqual(['id', 'layout', 'step', 'weights']);
  expect(() => setCheckpointCacheBytes(-1)).toThrow(/bound must be a number of bytes >= 0/);
});

test('a checkpoint rewritten on disk is read again', () => {
  const file = write('changing.json', 1);
  expect(playingCheckpoint(file).step).toBe(1);
  write('changing.json', 2);
  const later = new Date(Date.now() + 5000);
  utimesSync(file, later, later);
  expect(playingCheckpoint(file).step).toBe(2);
});
