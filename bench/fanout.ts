/**
 * Fan-out: N socket.io spectators watch one live match on loopback while events are published
 * on the bus at a fixed rate. Reports delivery latency (publish -> client callback) p50/p99/max
 * and dropped events (expected deliveries that never arrived) as a markdown table.
 *
 * The server runs in this process; the clients run in `--procs` child processes (this same
 * file with `--child`), all on 127.0.0.1. Counts and time are bounded; children are killed at
 * the end or on timeout.
 *
 * Usage: npm run bench:fanout [-- --clients 1000 --rate 50 --seconds 10 --procs 2]
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { EventBus } from '../src/bus/event-bus';
import type { MatchEvent } from '../src/core/events';
import { startServer } from '../app/server/start-server';

const MATCH = 'fanout-bench';
const now = () => performance.timeOrigin + performance.now();

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

interface ChildReport {
  /** CPU seconds (user + system) the child used while events were published. */
  cpu: number;
  latencies: number[];
  received: number;
  duplicates: number;
  joined: number;
  failed: number;
}

/** Child: opens `count` spectators, joins the match, records latency of every live event. */
async function child(): Promise<void> {
  const url = process.argv[process.argv.indexOf('--url') + 1];
  const count = arg('count', 500);
  const latencies: number[] = [];
  let received = 0;
  let duplicates = 0;
  let failed = 0;
  const sockets: Socket[] = [];
  const seen: Set<number>[] = [];
  const joins: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    const mine = new Set<number>();
    seen.push(mine);
    sockets.push(s);
    s.on('event', (m: { event: MatchEvent }) => {
      const t = now();
      const e = m.event;
      if (e.type !== 'env') return;
      if (mine.has(e.seq)) {
        duplicates++;
        return;
      }
      mine.add(e.seq);
      received++;
      latencies.push(t - (e.data.t as number));
    });
    joins.push(
      new Promise<void>((ok) => {
        s.once('connect', () => {
          s.timeout(30_000)
            .emitWithAck('join', { matchId: MATCH })
            .then((r: { ok: boolean }) => (r.ok ? undefined : failed++))
            .catch(() => failed++)
            .finally(ok);
        });
        s.once('connect_error', () => {
          failed++;
          ok();
        });
      }),
    );
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 5)); // do not stampede the accept queue
  }
  await Promise.all(joins);
  process.send!({ type: 'joined', joined: count - failed, failed });
  let cpu0 = process.cpuUsage();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'go') cpu0 = process.cpuUsage();
    if (m.type !== 'report') return;
    const used = process.cpuUsage(cpu0);
    const report: ChildReport = { cpu: (used.user + used.system) / 1e6, latencies, received, duplicates, joined: count - failed, failed };
    process.send!({ type: 'report', report }, () => {
      for (const s of sockets) s.disconnect();
      process.exit(0);
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const clients = arg('clients', 1000);
  const rate = arg('rate', 50);
  const seconds = arg('seconds', 10);
  const procs = Math.min(arg('procs', 2), 8);
  const bus = new EventBus();
  const server = await startServer({ bus, port: 0, rateLimit: { burst: 100 } });
  const url = server.url;
  let seq = 0;
  const base = () => ({ matchId: MATCH, seq: seq++, time: Date.now() });
  bus.publish({ ...base(), visibility: 'omniscient', type: 'match.created', env: 'bench-v1', params: {}, seed: 0, seats: [{ role: 'a', team: 'a', agent: 'x' }, { role: 'b', team: 'b', agent: 'y' }] });
  bus.publish({ ...base(), visibility: 'public', type: 'match.started', env: 'bench-v1', params: {}, agents: ['x', 'y'] });

  const children: ChildProcess[] = [];
  const kill = () => children.forEach((c) => c.connected && c.kill('SIGKILL'));
  const guard = setTimeout(() => {
    console.error('fanout: timed out; killing clients');
    kill();
    process.exit(1);
  }, (seconds + 120) * 1000);
  const reports: Promise<ChildReport>[] = [];
  const joined: Promise<{ joined: number; failed: number }>[] = [];
  const t0 = Date.now();
  for (let p = 0; p < procs; p++) {
    const count = Math.floor(clients / procs) + (p < clients % procs ? 1 : 0);
    const c = fork(__filename, ['--child', '--url', url, '--count', String(count)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(c);
    joined.push(new Promise((ok) => c.on('message', (m: { type: string; joined: number; failed: number }) => m.type === 'joined' && ok(m))));
    reports.push(new Promise((ok) => c.on('message', (m: { type: string; report: ChildReport }) => m.type === 'report' && ok(m.report))));
  }
  const joins = await Promise.all(joined);
  const joinSecs = (Date.now() - t0) / 1000;
  const connected = joins.reduce((t, j) => t + j.joined, 0);

  // publish one public env event every 1000/rate ms, on a drift-free schedule
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  children.forEach((c) => c.send({ type: 'go' }));
  const cpu0 = process.cpuUsage();
  const start = now();
  for (let k = 0; k < total; k++) {
    const due = start + k * interval;
    const wait = due - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    bus.publish({ ...base(), visibility: 'public', type: 'env', step: k, name: 'tick', data: { k, t: now() } } as MatchEvent);
  }
  const sendSecs = (now() - start) / 1000;
  await new Promise((r) => setTimeout(r, 2000)); // let the last frames arrive
  const cpuUsed = process.cpuUsage(cpu0);
  const serverCpu = (cpuUsed.user + cpuUsed.system) / 1e6;
  const wall = sendSecs + 2;
  children.forEach((c) => c.send({ type: 'report' }));
  const all = await Promise.all(reports);
  clearTimeout(guard);
  const latencies = all.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const received = all.reduce((t, r) => t + r.received, 0);
  const duplicates = all.reduce((t, r) => t + r.duplicates, 0);
  const expected = total * connected;
  await server.close();

  const f1 = (x: number) => x.toFixed(1);
  const clientCpu = all.reduce((t, r) => t + r.cpu, 0);
  console.log(`fan-out over socket.io on loopback, node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}; server in-process, clients in ${procs} child process(es)\n`);
  console.log('| spectators | events/s | events | deliveries expected | delivered | dropped | duplicates | latency p50 | p99 | max | join time | server CPU | clients CPU |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${connected}${connected < clients ? ` of ${clients}` : ''} | ${f1(total / sendSecs)} | ${total} | ${expected.toLocaleString('en-US')} | ${received.toLocaleString('en-US')} | ${expected - received} | ${duplicates} | ${f1(percentile(latencies, 50))} ms | ${f1(percentile(latencies, 99))} ms | ${f1(latencies[latencies.length - 1] ?? NaN)} ms | ${joinSecs.toFixed(1)} s | ${Math.round((100 * serverCpu) / wall)}% | ${Math.round((100 * clientCpu) / wall)}% |`,
  );
  kill();
}

if (process.argv.includes('--child')) void child();
else
  void main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
