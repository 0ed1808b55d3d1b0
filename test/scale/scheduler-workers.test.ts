/**
 * Scale-out end to end (issue 14): `arena league run --redis` schedules, `arena worker` processes
 * play. Killing a worker mid-match (kill -9) or the scheduler at a random point never changes the
 * league: the final database equals the single-process run of the same config.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents, Queue } from 'bullmq';
import { Store } from '../../src/store/store';
import type { MatchJob } from '../../league/scale/match-job';
import { BULL_PREFIX, queueName } from '../../src/scale/keys';
import { startArena, type RunningArena } from '../cli/helpers';
import { outcome, rpsLeague, asConfigFile, within, inOneProcess } from '../league/scale/helpers';
import { describeRedis, startRedis, type TestRedis } from './redis-server';

const QUEUE = queueName('rock-paper-scissors-v1');
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-scale-'));


describeRedis('league on workers through Redis (BullMQ)', () => {
  let redis: TestRedis;
  const started: RunningArena[] = [];
  const arena = (args: string[]) => {
    const r = startArena(args);
    started.push(r);
    return r;
  };
  const worker = (name: string) => arena(['worker', '--redis', redis.url, '--name', name, '--lock-ms', '1500', '--cache', join(tmp(), 'cache')]);

  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const r of started.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await redis.stop();
  });

  test('3 workers, one killed with -9 in the middle of a match: its job is retried and the league equals the single-process run', async () => {
    const dir = tmp();
    const budget = 30;
    // pace makes each match last a few hundred ms (so the kill lands mid-match); it changes no result
    const raw = rpsLeague('scale', budget, { window: 6, paceMs: 150 });
    await inOneProcess(join(dir, 'ref.db'), { ...raw, paceMs: 0 });
    writeFileSync(join(dir, 'league.json'), asConfigFile(raw));

    const events = new QueueEvents(QUEUE, { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    const queue = new Queue<MatchJob>(QUEUE, { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    try {
      await events.waitUntilReady();
      const workers = new Map(['w0', 'w1', 'w2'].map((n) => [n, worker(n)]));
      await Promise.all([...workers.values()].map((w) => w.waitFor(/connected to/)));
      let completed = 0;
      events.on('completed', () => completed++);
      // the first job to start after 5 matches are done: kill its worker while it plays it
      const killed = new Promise<{ jobId: string; victim: string }>((resolve) => {
        const onActive = async ({ jobId }: { jobId: string }) => {
          if (completed < 5) return;
          events.off('active', onActive);
          const job = await queue.getJob(jobId);
          const victim = job!.processedBy!;
          workers.get(victim)!.child.kill('SIGKILL');
          resolve({ jobId, victim });
        };
        events.on('active', onActive);
      });
      const stalled = new Map<string, number>();
      events.on('stalled', ({ jobId }) => stalled.set(jobId, (stalled.get(jobId) ?? 0) + 1));
      const retried = killed.then(({ jobId }) => new Promise<void>((resolve) => {
        if (stalled.has(jobId)) return resolve();
        events.on('stalled', (e) => e.jobId === jobId && resolve());
      }));

      const scheduler = arena(['league', 'run', '--config', join(dir, 'league.json'), '--db', join(dir, 'scale.db'), '--redis', redis.url, '--quiet']);
      const { victim } = await within(killed, 60_000, 'a job started after 5 matches');
      await within(retried, 60_000, `the killed worker's (${victim}) job put back by stalled-job detection`);
      expect(await within(scheduler.exited, 120_000, 'the scheduler finishing')).toBe(0);
      expect(scheduler.stderr()).toMatch(/league "scale": 30\/30 matches \(30 this run\)/);

      // graceful stop of the living workers
      for (const [name, w] of workers) {
        if (name === victim) continue;
        w.child.kill('SIGTERM');
        expect(await within(w.exited, 30_000, `worker ${name} stopping on SIGTERM`)).toBe(0);
        expect(w.stderr()).toMatch(new RegExp(`worker ${name}: stopped after \\d+ match`));
      }
    } finally {
      await events.close();
      await queue.close();
    }
    const a = outcome(join(dir, 'ref.db'), 'scale');
    const b = outcome(join(dir, 'scale.db'), 'scale');
    expect(b.matches).toHaveLength(budget);
    expect(b).toEqual(a);
  }, 240_000);

  test('the scheduler killed with -9 at a random point and restarted: the league equals the single-process run', async () => {
    const dir = tmp();
    const budget = 40;
    const raw = rpsLeague('sched', budget, { window: 5, paceMs: 20 });
    await inOneProcess(join(dir, 'ref.db'), { ...raw, paceMs: 0 });
    writeFileSync(join(dir, 'league.json'), asConfigFile(raw));
    const events = new QueueEvents(QUEUE, { connection: { host: '127.0.0.1', port: redis.port }, prefix: BULL_PREFIX });
    try {
      await events.waitUntilReady();
      const w = [worker('a'), worker('b')];
      await Promise.all(w.map((x) => x.waitFor(/connected to/)));
      // jobs are batches of 2 matches (--batch 2): 40 matches are 20 jobs
      const killAt = 3 + Math.floor(Math.random() * 15);
      let completed = 0;
      const reached = new Promise<void>((resolve) => events.on('completed', () => ++completed === killAt && resolve()));
      const args = ['league', 'run', '--config', join(dir, 'league.json'), '--db', join(dir, 'sched.db'), '--redis', redis.url, '--batch', '2', '--quiet'];
      const first = arena(args);
      await within(reached, 60_000, `${killAt} jobs completed`);
      first.child.kill('SIGKILL');
      await first.exited;
      const second = arena(args);
      expect(await within(second.exited, 120_000, 'the restarted scheduler finishing')).toBe(0);
      expect(second.stderr()).toMatch(/league "sched": 40\/40 matches/);
    } finally {
      await events.close();
    }
    expect(outcome(join(dir, 'sched.db'), 'sched')).toEqual(outcome(join(dir, 'ref.db'), 'sched'));
  }, 240_000);

  test('a job that kills every worker that plays it is a recorded failure after --attempts starts, never a stuck league', async () => {
    const dir = tmp();
    const raw = { name: 'poison', env: './examples/rock-paper-scissors.js', seed: 1, players: [{ id: 'random', agent: 'random' }, { id: 'killer', agent: './test/fixtures/process-killer-agent.js#process-killer' }], budget: { matches: 1 }, window: 1 };
    writeFileSync(join(dir, 'league.json'), asConfigFile(raw));
    // one worker at a time; each one the job kills is replaced (a live worker's stalled-job check puts the job back)
    let deaths = 0;
    let stopping = false;
    // how each worker ended, asserted after the run (an expect in this callback would throw outside the test)
    const ends: (number | string)[] = [];
    const spawnWorker = (): void => {
      const w = arena(['worker', '--redis', redis.url, '--name', `p${deaths}`, '--lock-ms', '1000', '--attempts', '2']);
      void w.exited.then((code) => {
        if (stopping) return;
        ends.push(code);
        if (code !== 'SIGKILL') return; // a worker that failed otherwise is not replaced; the assertion below names it
        deaths++;
        spawnWorker();
      });
    };
    spawnWorker();
    const scheduler = arena(['league', 'run', '--config', join(dir, 'league.json'), '--db', join(dir, 'p.db'), '--redis', redis.url, '--quiet']);
    const schedulerCode = await within(scheduler.exited, 120_000, 'the scheduler finishing').catch((e: Error) => e.message);
    stopping = true;
    expect({ ends, scheduler: schedulerCode, stderr: schedulerCode === 0 ? '' : scheduler.stderr().slice(-600) }).toEqual({ ends: ['SIGKILL', 'SIGKILL'], scheduler: 0, stderr: '' });
    expect(deaths).toBe(2);
    expect(scheduler.stderr()).toMatch(/match 0 failed on every attempt and is recorded as failed \(job stalled more than allowable limit \(0 errors, 2 worker deaths\)\)/);
    const store = new Store(join(dir, 'p.db'), { readonly: true });
    try {
      expect(store.matches('poison').map((m) => m.code)).toEqual(['failed']);
    } finally {
      store.close();
    }
  }, 240_000);
});

