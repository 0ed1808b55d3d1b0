/** Small pure parts of scale-out: Redis URLs, back-off, job ids, batch boundaries, env filters of workers. */
import { jobId, queueName } from '../../src/scale/keys';
import { backoffMs, parseRedisUrl, RedisUrlError } from '../../src/scale/redis-connection';
import { wantsEnv } from '../../league/scale/match-worker';
import { chunks, defaultBatch } from '../../league/engine/worker-player';
import type { MatchPlan } from '../../league/engine/match-plan';
import { splitJobId } from '../../src/scale/keys';

describe('scale-out units', () => {
  test('Redis URLs: host, port, db, credentials, TLS; the password never shown', () => {
    expect(parseRedisUrl('redis://127.0.0.1')).toEqual({ host: '127.0.0.1', port: 6379, db: 0, tls: false, shown: 'redis://127.0.0.1:6379' });
    expect(parseRedisUrl('rediss://bob:s%40cret@cache.example:7000/3')).toEqual({ host: 'cache.example', port: 7000, db: 3, username: 'bob', password: 's@cret', tls: true, shown: 'rediss://cache.example:7000/3' });
    expect(parseRedisUrl('redis://[::1]:6380').host).toBe('::1');
    expect(() => parseRedisUrl('http://127.0.0.1:6379')).toThrow(RedisUrlError);
    expect(() => parseRedisUrl('redis://127.0.0.1/-1')).toThrow(/database "-1" is not a number/);
  });

  test('reconnection back-off doubles from 100 ms to at most 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(backoffMs)).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  });

  test('job ids are deterministic, distinct per (league, index), and free of ":"', () => {
    expect(jobId('w', 3)).toBe('w#3');
    expect(jobId('a:b', 1)).toBe('a%3Ab#1');
    expect(jobId('a%3Ab', 1)).not.toBe(jobId('a:b', 1));
    expect(queueName('my env/v1')).toBe('matches.my_env_v1');
  });

  test('--envs: an exact id, or an id without its version for every version; none = every env', () => {
    expect(wantsEnv(undefined, 'werewolf-v1')).toBe(true);
    expect(wantsEnv([], 'werewolf-v1')).toBe(true);
    expect(wantsEnv(['werewolf'], 'werewolf-v1')).toBe(true);
    expect(wantsEnv(['werewolf-v1'], 'werewolf-v1')).toBe(true);
    expect(wantsEnv(['werewolf-v2'], 'werewolf-v1')).toBe(false);
    expect(wantsEnv(['countdown'], 'werewolf-v1')).toBe(false);
  });

  test('batches are cut at the multiples of their size (the same jobs whenever plans are handed out); a gap starts a batch', () => {
    const plans = (...idx: number[]) => idx.map((i) => ({ idx: i }) as MatchPlan);
    const cut = (ps: MatchPlan[], size: number) => chunks(ps, size).map((c) => c.map((p) => p.idx));
    expect(cut(plans(3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 4)).toEqual([[3], [4, 5, 6, 7], [8, 9, 10, 11], [12]]);
    expect(cut(plans(0, 1, 2, 5, 6), 4)).toEqual([[0, 1, 2], [5, 6]]);
    expect(cut(plans(0, 1, 2), 1)).toEqual([[0], [1], [2]]);
    // default: two batches in flight, at most 16 plans each
    expect([1, 2, 5, 16, 32, 100].map(defaultBatch)).toEqual([1, 1, 2, 8, 16, 16]);
    expect(splitJobId('a:b', 3)).toBe('a%3Ab#3.alone');
    expect(splitJobId('a:b', 3)).not.toBe(jobId('a:b', 3));
  });
});
