/**
 * The CLI's supervisor: runs the command in a worker thread (app/cli/worker-entry.ts) and, from
 * the main thread, which never runs user code,
 *
 * - relays the first Ctrl-C / SIGTERM to commands that stop cleanly (they finish the current
 *   match and exit), ends the worker at once on a second one (exit 130) or when the command has
 *   nothing to stop cleanly;
 * - watches the worker's heartbeat (src/core/heartbeat.ts): when user code — an env member, an
 *   agent's synchronous `act`, a module loading — runs longer than its limit without returning,
 *   it ends the worker and prints one line naming the env or agent, the member, seed and step
 *   (`arena check` prints it as a failed check). Exit code 1. The store's transactions keep the
 *   database consistent: a match is recorded whole or not at all.
 *
 * Limits: `ARENA_WATCHDOG_MS` (default 60000; 0 turns the watchdog off); an agent with a
 * deadline gets its deadline plus one second.
 */
import { Worker } from 'node:worker_threads';
import { createHeartbeatBuffer, Phase, readHeartbeat, type HeartbeatReading } from '../../src/core/heartbeat';

/** What the supervisor hands the worker (app/cli/worker-entry.ts). */
export interface WorkerInput {
  argv: string[];
  heartbeat: SharedArrayBuffer;
  /** The real terminal's stderr: progress bars draw when it is a TTY. */
  stderrTTY: boolean;
  columns?: number;
}

/** The watchdog's default limit for user code that does not return (ms). */
export const DEFAULT_WATCHDOG_MS = 60_000;

const SAMPLE_MS = 100;

/** The watchdog limit from `ARENA_WATCHDOG_MS` (0 = off); a bad value is a usage error. */
export function watchdogLimit(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.ARENA_WATCHDOG_MS;
  if (text === undefined || text === '') return DEFAULT_WATCHDOG_MS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`ARENA_WATCHDOG_MS: expected a non-negative integer (milliseconds; 0 = off), got "${text.slice(0, 40)}"`);
  return n;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The one line (or check report) describing a hang, from the heartbeat the worker left. */
export function describeHang(r: HeartbeatReading, limitMs: number): { text: string; code: number } {
  const c = r.context;
  const where = `seed ${r.seed} step ${r.step}`;
  const agents = Array.isArray(c.agents) ? c.agents : [];
  const players = Array.isArray(c.players) ? c.players : [];
  const env = str(c.env) ?? 'the env';
  if (r.phase === Phase.Load) {
    return { text: `arena: module ${str(c.module) ?? '(unknown)'} did not finish loading within ${limitMs} ms (an endless loop at load time?); stopped\n`, code: 1 };
  }
  const what =
    r.phase === Phase.Agent
      ? `agent "${agents[r.seat ?? -1] ?? '?'}" (seat ${r.seat}${players[r.seat ?? -1] ? `, player ${players[r.seat ?? -1]}` : ''}) did not return from act() within ${limitMs} ms`
      : `env ${env}: member ${r.member}() did not return within ${limitMs} ms`;
  if (str(c.command) === 'check') {
    const member = r.phase === Phase.Agent ? what : `member ${r.member}() did not return within ${limitMs} ms`;
    const problem = `${member} at episode ${where} (an endless loop?); the kit stopped there`;
    const check = str(c.check) ?? 'termination';
    if (c.json === true) {
      return { text: JSON.stringify({ env, ok: false, hung: true, checks: [{ name: check, ok: false, problems: [problem] }] }) + '\n', code: 1 };
    }
    return { text: `${env}: FAIL (a member hung)\n  ✗ ${check}\n      ${problem}\n`, code: 1 };
  }
  const match = str(c.match) ? ` in match ${str(c.match)}` : '';
  return { text: `arena: ${what}${r.phase === Phase.Agent ? ` in ${env}` : ''} at ${where}${match} (an endless loop?); stopped\n`, code: 1 };
}

/**
 * Runs `arena <argv>` in a worker thread started from `entry` and supervises it (see the file
 * doc); resolves to the exit code.
 */
export function superviseInWorker(argv: string[], entry: string): Promise<number> {
  let limit: number;
  try {
    limit = watchdogLimit();
  } catch (e) {
    process.stderr.write(`arena: ${(e as Error).message}\n`);
    return Promise.resolve(2);
  }
  const heartbeat = createHeartbeatBuffer();
  const input: WorkerInput = { argv, heartbeat, stderrTTY: !!process.stderr.isTTY, columns: process.stderr.columns };
  const worker = new Worker(entry, { workerData: input });
  return new Promise((resolve) => {
    let done = false;
    let ended: number | null = null; // the code to exit with after terminating the worker
    let signals = 0;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(code);
    };
    const end = (code: number) => {
      ended = code;
      void worker.terminate();
    };
    const onSignal = () => {
      signals++;
      const r = readHeartbeat(heartbeat, true);
      if (signals === 1 && r.stoppable) {
        process.stderr.write(`\n${str(r.context.stopping) ?? 'stopping'} (Ctrl-C again to quit now)...\n`);
        worker.postMessage({ type: 'stop' });
      } else end(130);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    let lastCount = -1;
    let stalledMs = 0;
    const timer = setInterval(() => {
      if (limit === 0 || ended !== null) return;
      const r = readHeartbeat(heartbeat);
      if (r.phase === Phase.Idle || r.count !== lastCount) {
        lastCount = r.count;
        stalledMs = 0;
        return;
      }
      stalledMs += SAMPLE_MS;
      const allowed = r.phase === Phase.Agent && r.limitMs > 0 ? r.limitMs : limit;
      if (stalledMs < allowed) return;
      const hang = describeHang(readHeartbeat(heartbeat, true), allowed);
      (hang.text.startsWith('arena:') ? process.stderr : process.stdout).write(hang.text);
      end(hang.code);
    }, SAMPLE_MS);

    worker.on('error', (e) => {
      process.stderr.write(`arena: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      if (ended === null) ended = 1;
    });
    worker.on('exit', (code) => finish(ended ?? code));
  });
}
