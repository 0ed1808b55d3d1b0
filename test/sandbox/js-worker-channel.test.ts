/**
 * The JavaScript sandbox worker's IPC channel (src/sandbox/worker/js-worker.cjs). Started without
 * one it says so and ends. And, spoken to over a channel this test writes itself (Node's JSON
 * IPC: a socket at descriptor 3 named by NODE_CHANNEL_FD, one JSON value a line), several
 * messages can reach the worker in one read, deterministically: a request read after a retire
 * answer went out — in the same read as the cancel that caused it — is never run (`retired`):
 * the worker ends with the retire answer alone. And with this test not reading, the worker's
 * answers wait in its write queue, so its own end (after the retire answer is out) waits too:
 * the cancelled run's own end, which comes meanwhile, is not answered a second time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';

const WORKER = join(__dirname, '../../src/sandbox/worker/js-worker.cjs');

let worker: ChildProcess | undefined;
afterEach(() => worker?.kill('SIGKILL'));

/** How a process ended: its exit code or signal, and what it wrote to stderr. */
function ended(w: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  w.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => w.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

/** A worker spoken to over a JSON channel at descriptor 3; `text()` is all it wrote there. */
function rawWorker() {
  const w = spawn(process.execPath, ['--no-node-snapshot', WORKER], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_CHANNEL_FD: '3', NODE_CHANNEL_SERIALIZATION_MODE: 'json' },
  });
  const channel = w.stdio[3] as Socket;
  let text = '';
  channel.on('data', (d: Buffer) => (text += d.toString()));
  channel.on('error', () => {}); // the worker's end may reset the socket
  return { w, channel, text: () => text };
}

/** A request as the pool sends it (JSON text), written as one line of the channel. */
const line = (m: unknown) => `${JSON.stringify(JSON.stringify(m))}\n`;

/** A code run whose program loops until its time limit. */
const loop = (id: number, timeMs: number) =>
  ({ id, op: 'tests', req: { program: 'function f(){ for (;;) {} }', entry: 'f', tests: [{ input: [] }], limits: { timeMs, memoryMb: 64, outputBytes: 1000 } } });

test('started without an IPC channel, the worker says so on stderr and ends with code 2', async () => {
  worker = spawn(process.execPath, ['--no-node-snapshot', WORKER], { stdio: ['ignore', 'ignore', 'pipe'] });
  expect(await ended(worker)).toEqual({
    code: 2,
    signal: null,
    stderr: 'js-worker.cjs: no IPC channel (the sandbox pool forks this file with one); exiting\n',
  });
});

test('a request read after a retire answer went out is not run: a cancel of the running code run and a request behind it, in one read', async () => {
  const raw = rawWorker();
  worker = raw.w;
  const end = ended(worker);
  // one write, so one read in the worker: a code run (it starts as it is read: no --sync), a
  // cancel of it (it is running: answered at once, retire), then a request the worker could
  // answer at once (lab.close, synchronous) if it ran it
  raw.channel.write(line(loop(1, 5000)) + JSON.stringify({ cancel: 1 }) + '\n' + line({ id: 2, op: 'lab.close', req: { id: 'none' } }));
  const { signal, stderr } = await end;
  expect(stderr).toBe('');
  expect(signal).toBe('SIGKILL'); // the worker's own end after a retire answer
  expect(raw.text()).toBe(`${JSON.stringify(JSON.stringify({ id: 1, ok: false, error: 'cancelled', cancelled: true, retire: true }))}\n`);
}, 20_000);

test("a code run cancelled while running is answered once: its own end, while the cancel's answer waits to go out, is dropped", async () => {
  const raw = rawWorker();
  worker = raw.w;
  raw.channel.pause(); // nothing read: the worker's answers fill the socket and wait in its queue
  const end = ended(worker);
  // an unknown op of 3 million characters: answered at once with an error that holds its name,
  // more than the socket holds; then a code run of 500 ms and, while it runs, its cancel
  const op = 'x'.repeat(3_000_000);
  raw.channel.write(line({ id: 1, op }) + line(loop(2, 500)) + JSON.stringify({ cancel: 2 }) + '\n');
  // the run's own end comes after 500 ms; the cancel's answer is still queued behind the first
  await new Promise((r) => setTimeout(r, 2500));
  raw.channel.resume();
  const { signal, stderr } = await end;
  expect(stderr).toBe('');
  expect(signal).toBe('SIGKILL');
  const answers = raw.text().split('\n');
  expect(answers.pop()).toBe(''); // whole lines only
  expect(answers.map((l) => JSON.parse(JSON.parse(l)))).toEqual([
    { id: 1, ok: false, error: `unknown op "${op}"` },
    { id: 2, ok: false, error: 'cancelled', cancelled: true, retire: true },
  ]);
}, 20_000);
