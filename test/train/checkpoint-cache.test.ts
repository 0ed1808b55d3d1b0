/**
 * The checkpoints `neural` agents play from (issue 28, a long league's memory): the cache keeps
 * at most CHECKPOINT_CACHE_ENTRIES files, the most recently used, and only the playing part of
 * each (no optimizer state); a file rewritten on disk is read again.
 */
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedCheckpointFiles, CHECKPOINT_CACHE_ENTRIES, playingCheckpoint } from '../../src/train/checkpoint-cache';
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

test('a league of many snapshots: the cache stays bounded, most recently used kept, playing part only', () => {
  const rps = fixtureEnv('rps');
  const params = rps.resolveParams({ rounds: 1 });
  const files = Array.from({ length: CHECKPOINT_CACHE_ENTRIES * 3 }, (_, i) => write(`snap-${i}.json`, i + 1));
  const first = playingCheckpoint(files[0]);
  for (const f of files) neuralAgent.create({ env: rps, params, seed: 0, options: { checkpoint: f } });
  expect(cachedCheckpointFiles()).toHaveLength(CHECKPOINT_CACHE_ENTRIES);
  expect(cachedCheckpointFiles()).toEqual(files.slice(-CHECKPOINT_CACHE_ENTRIES).map((f) => resolve(f)));
  // a hit moves the file to the most recently used end
  const again = files[files.length - CHECKPOINT_CACHE_ENTRIES];
  playingCheckpoint(again);
  expect(cachedCheckpointFiles().at(-1)).toBe(resolve(again));
  // only what playing needs is kept
  expect(Object.keys(first).sort()).toEqual(['id', 'layout', 'step', 'weights']);
});

test('a checkpoint rewritten on disk is read again', () => {
  const file = write('changing.json', 1);
  expect(playingCheckpoint(file).step).toBe(1);
  write('changing.json', 2);
  const later = new Date(Date.now() + 5000);
  utimesSync(file, later, later);
  expect(playingCheckpoint(file).step).toBe(2);
});
