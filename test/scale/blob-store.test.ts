/**
 * Files by content through Redis (src/scale/blob-store.ts): what workers fetch is verified by
 * hash, changed or corrupted copies are one-line errors, and a missing file is written only below
 * the worker's working directory.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Redis from 'ioredis';
import { fileRef } from '../../league/engine/match-plan';
import { BlobError, BlobStore } from '../../src/scale/blob-store';
import { blobKey } from '../../src/scale/keys';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

describeRedis('files by content through Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.port, '127.0.0.1');
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });

  const tmp = () => mkdtempSync(join(tmpdir(), 'arena-blob-'));

  test('a file put by the scheduler is fetched by hash into a worker cache, verified, and reused', async () => {
    const dir = tmp();
    const file = join(dir, 'ckpt.json');
    writeFileSync(file, '{"weights":[1,2,3]}');
    const ref = fileRef(file);
    await new BlobStore(client, '').put(ref);
    const worker = new BlobStore(client, join(dir, 'cache'));
    const copy = await worker.cached(ref);
    expect(copy).toBe(join(dir, 'cache', `${ref.sha256}.json`));
    expect(readFileSync(copy, 'utf8')).toBe('{"weights":[1,2,3]}');
    // gone from Redis: the verified copy is still served
    await client.del(blobKey(ref.sha256));
    expect(await worker.cached(ref)).toBe(copy);
    // another worker on the same cache folder verifies the file there instead of fetching it
    expect(await new BlobStore(client, join(dir, 'cache')).cached(ref)).toBe(copy);
  });

  test('a file changed since it was hashed, a hash not in Redis and a corrupted copy are BlobErrors naming the file', async () => {
    const dir = tmp();
    const file = join(dir, 'task.jsonl');
    writeFileSync(file, 'a');
    const ref = fileRef(file);
    writeFileSync(file, 'b');
    await expect(new BlobStore(client, '').put(ref)).rejects.toThrow(new BlobError(`${file} changed while the league runs (its hash is no longer ${ref.sha256.slice(0, 12)}…)`));
    await expect(new BlobStore(client, join(dir, 'c')).cached(ref)).rejects.toThrow(/task\.jsonl \(sha256 [0-9a-f]{12}…\) is not in the Redis store/);
    await client.set(blobKey(ref.sha256), 'tampered');
    await expect(new BlobStore(client, join(dir, 'c')).cached(ref)).rejects.toThrow(/the stored copy of .*task\.jsonl does not match its hash/);
  });

  test("ensureAt: the worker's own copy must match; a missing one is written only below the working directory", async () => {
    const dir = mkdtempSync(join(process.cwd(), '.arena-blob-test-'));
    try {
      const abs = join(dir, 'mod.js');
      writeFileSync(abs, 'module.exports = 1;');
      const ref = { ...fileRef(abs), path: relative(process.cwd(), abs) };
      const scheduler = new BlobStore(client, '');
      await scheduler.put(ref);
      expect(await new BlobStore(client, '').ensureAt(ref)).toBe(false); // same content here
      writeFileSync(abs, 'module.exports = 2;');
      await expect(new BlobStore(client, '').ensureAt(ref)).rejects.toThrow(/mod\.js on this worker differs from the league's/);
      rmSync(abs);
      mkdirSync(dir, { recursive: true });
      expect(await new BlobStore(client, '').ensureAt(ref)).toBe(true); // written from Redis
      expect(readFileSync(abs, 'utf8')).toBe('module.exports = 1;');
      const outside = join(tmp(), 'missing.js');
      await expect(new BlobStore(client, '').ensureAt({ path: outside, sha256: ref.sha256 })).rejects.toThrow(/missing\.js is missing on this worker and lies outside its working directory/);
      await expect(new BlobStore(client, '').ensureAt({ path: '../escape.js', sha256: ref.sha256 })).rejects.toThrow(/outside its working directory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
