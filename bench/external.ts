/**
 * External players and trainers on loopback (issue 13), three markdown tables:
 *
 * 1. Env server: trainer decisions per second through `arena env-serve` (HTTP keep-alive,
 *    Deal-or-No-Deal against `random`) with 1, 8 and 64 concurrent sessions. The server runs in
 *    a child process (`dist/bin/arena.js env-serve`), the trainers in this one.
 * 2. Remote seats: round trip of a decision (the remote agent's `act`: `decide` out, `act`
 *    back) with the JS SDK bot (websocket) and the stdlib Python bot (long-polling), each in a
 *    child process; p50 / p99.
 * 3. LLM agent: its overhead per decision against the local mock server — the `act` wall time
 *    minus the server's own handling time (prompt building, the openai client, HTTP on
 *    loopback, parsing, validation) — for Deal-or-No-Deal (finite, named actions) and Countdown
 *    (open answers).
 *
 * Usage: npm run build && npm run bench:external [-- --seconds 5 --decisions 400]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent as HttpAgent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EventBus } from '../src/bus/event-bus';
import { defaultRegistry } from '../app/catalog';
import type { Agent } from '../src/core/agent';
import { runMatch } from '../src/match/runner';
import { startServer } from '../app/server/start-server';
import { RemoteAgent } from '../app/server/play/remote-agent';
import { randomAgent } from '../agents/random';
import { llmAgent } from '../agents/llm';
import { legalNamesOf, startMockOpenAI } from '../agents/llm/mock-server';

const ROOT = join(__dirname, '..', '..');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

const f = (x: number, d = 2) => x.toFixed(d);

/** Starts a child and resolves with the first stdout match of `pattern`. */
function startChild(cmd: string, args: string[], pattern?: RegExp): { child: ChildProcess; match: Promise<RegExpExecArray | null> } {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const match = new Promise<RegExpExecArray | null>((resolve, reject) => {
    if (!pattern) return resolve(null);
    const timer = setTimeout(() => reject(new Error(`no match for ${pattern} in: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  });
  return { child, match };
}

function post(agent: HttpAgent, url: URL, path: string, body: unknown): Promise<Record<string, any>> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        if (res.statusCode !== 200) reject(new Error(`${res.statusCode}: ${json.message}`));
        else resolve(json);
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function envServer(seconds: number): Promise<string[]> {
  const { child, match } = startChild(process.execPath, [join(ROOT, 'bin', 'arena.js'), 'env-serve', 'deal-or-no-deal-v1', '--agents', 'random', '--port', '0', '--max-sessions', '128'], /at (http:\/\/127\.0\.0\.1:\d+)/);
  const url = new URL((await match)![1]);
  const rows = ['| concurrent sessions | trainer decisions/s | episodes/s | mean step latency (ms) |', '|---:|---:|---:|---:|'];
  try {
    for (const c of [1, 8, 64]) {
      const agent = new HttpAgent({ keepAlive: true, maxSockets: c });
      let steps = 0;
      let episodes = 0;
      let latency = 0;
      const until = performance.now() + seconds * 1000;
      const worker = async (w: number) => {
        let r = await post(agent, url, '/reset', { seed: w });
        const id = r.metadata.session_id as string;
        let k = 0;
        while (performance.now() < until) {
          if (r.done) {
            episodes++;
            r = await post(agent, url, '/reset', { session_id: id, seed: w * 100_000 + k });
            continue;
          }
          const legal = r.observation.legal as { action: number }[];
          const t = performance.now();
          r = await post(agent, url, '/step', { session_id: id, action: { value: legal[(k++ * 7) % legal.length].action } });
          latency += performance.now() - t;
          steps++;
        }
        await new Promise<void>((resolve) => {
          const req = request({ host: url.hostname, port: url.port, path: `/sessions/${id}`, method: 'DELETE', agent }, (res) => (res.resume(), res.on('end', resolve)));
          req.end();
        });
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: c }, (_, w) => worker(w)));
      const elapsed = (performance.now() - started) / 1000;
      rows.push(`| ${c} | ${f(steps / elapsed, 0)} | ${f(episodes / elapsed, 0)} | ${f(latency / steps)} |`);
      agent.destroy();
    }
  } finally {
    child.kill('SIGTERM');
  }
  return rows;
}

async function remoteRtt(decisions: number): Promise<string[]> {
  const bus = new EventBus();
  const server = await startServer({ bus, port: 0, play: true });
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const rows = ['| remote bot | transport | decisions | p50 (ms) | p99 (ms) | mean (ms) |', '|---|---|---:|---:|---:|---:|'];
  try {
    for (const [name, cmd, file, transport] of [
      ['JS SDK (examples/bots/remote-bot.js)', process.execPath, 'examples/bots/remote-bot.js', 'websocket'],
      ['Python stdlib (examples/bots/remote-bot.py)', '/usr/bin/python3', 'examples/bots/remote-bot.py', 'HTTP long-polling'],
    ] as const) {
      const { slot, token } = server.play!.issue(name, 'remote');
      const { child } = startChild(cmd, [file, '--url', server.url, '--token', token, '--matches', '100000']);
      await server.play!.whenConnected(slot);
      const remote = new RemoteAgent(server.play!, slot, 'remote', name);
      const times: number[] = [];
      const timed: Agent = {
        name: remote.name,
        start: (ctx) => remote.start(ctx),
        end: (r, ctx) => remote.end(r, ctx),
        act: async (obs, legal, ctx) => {
          const t = performance.now();
          const a = await remote.act(obs, legal, ctx);
          times.push(performance.now() - t);
          return a;
        },
      };
      for (let k = 0; times.length < decisions; k++) {
        await runMatch({ env, params, seed: k, bus, agents: [timed, randomAgent.create({ env, params, seed: k })], deadlineMs: 10_000 });
      }
      child.kill('SIGTERM');
      const mean = times.reduce((s, x) => s + x, 0) / times.length;
      rows.push(`| ${name} | ${transport} | ${times.length} | ${f(quantile(times, 0.5))} | ${f(quantile(times, 0.99))} | ${f(mean)} |`);
    }
  } finally {
    await server.close();
  }
  return rows;
}

async function llmOverhead(decisions: number): Promise<string[]> {
  const server = await startMockOpenAI({
    respond: (req) => {
      const names = legalNamesOf(req);
      return { content: JSON.stringify({ action: names.length ? names[names.length - 1] : '100 + 6' }) };
    },
  });
  const rows = ['| env (answers) | decisions | act p50 (ms) | act p99 (ms) | server p50 (ms) | overhead p50 (ms) | overhead p99 (ms) | overhead mean (ms) |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  try {
    for (const [label, envId, raw] of [
      ['deal-or-no-deal-v1 (named offers)', 'deal-or-no-deal-v1', {}],
      ['countdown-v1 (expressions)', 'countdown-v1', { attempts: 8 }],
    ] as const) {
      const env = defaultRegistry.env(envId);
      const params = env.resolveParams(raw);
      const inner = llmAgent.create({ env, params, seed: 0, options: { baseURL: server.baseURL, model: 'bench' } });
      const acts: number[] = [];
      const agent: Agent = {
        name: inner.name,
        start: (ctx) => inner.start?.(ctx),
        act: async (obs, legal, ctx) => {
          const t = performance.now();
          const a = await inner.act(obs, legal, ctx);
          acts.push(performance.now() - t);
          return a;
        },
      };
      server.requests.length = 0;
      server.handledMs.length = 0;
      for (let k = 0; acts.length < decisions + 20; k++) {
        const agents = env.seats(env.init(params, k)).map((_, i) => (i === 0 ? agent : randomAgent.create({ env, params, seed: k })));
        await runMatch({ env, params, seed: k, agents, deadlineMs: 10_000 });
      }
      // one request per decision here (no re-asks): decision i's server time is request i's; the first 20 warm up
      const act = acts.slice(20);
      const handled = server.handledMs.slice(20, 20 + act.length);
      const over = act.map((t, i) => t - handled[i]);
      const mean = over.reduce((s, x) => s + x, 0) / over.length;
      rows.push(`| ${label} | ${act.length} | ${f(quantile(act, 0.5))} | ${f(quantile(act, 0.99))} | ${f(quantile(handled, 0.5))} | ${f(quantile(over, 0.5))} | ${f(quantile(over, 0.99))} | ${f(mean)} |`);
    }
  } finally {
    await server.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 5);
  const decisions = arg('decisions', 400);
  process.stdout.write(`## Env server (arena env-serve, deal-or-no-deal-v1 vs random, ${seconds} s per row)\n\n${(await envServer(seconds)).join('\n')}\n\n`);
  process.stdout.write(`## Remote seats: decision round trip on loopback (deal-or-no-deal-v1)\n\n${(await remoteRtt(decisions)).join('\n')}\n\n`);
  process.stdout.write(`## LLM agent overhead per decision (local mock server; overhead = act time - server handling time)\n\n${(await llmOverhead(decisions)).join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
