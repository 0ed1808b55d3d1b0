/**
 * `arena env-serve` as a process: a client's agent that would call process.exit is refused and
 * the server lives on; the first Ctrl-C closes every session (HTTP and WebSocket) and exits 0;
 * a second one while the server is busy exits 130 at once. Waits on the process's output and
 * on files the agents write, never on fixed sleeps.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ROOT } from '../../cli/helpers';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'arena-env-serve-cli-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  /** Resolves once stderr matches `re`. */
  stderrMatches(re: RegExp): Promise<void>;
}

async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'arena.js'), 'env-serve', 'deal-or-no-deal-v1', '--port', '0', ...args], { cwd: dir, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  const watchers: { re: RegExp; resolve: () => void }[] = [];
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of [...watchers]) if (w.re.test(err)) (watchers.splice(watchers.indexOf(w), 1), w.resolve());
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`env-serve exited ${code} before serving: ${out}${err}`)));
  });
  return {
    child,
    url,
    out: () => out,
    err: () => err,
    exited,
    stderrMatches: (re) => (re.test(err) ? Promise.resolve() : new Promise((resolve) => watchers.push({ re, resolve }))),
  };
}

const post = async (url: string, body: unknown) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Record<string, any> };
};

test("a client's process.exit agent is refused and the server lives; the first Ctrl-C closes the sessions and exits 0", async () => {
  const exits = join(dir, 'exits.js');
  writeFileSync(exits, "module.exports = { agents: [{ name: 'x', create: () => ({ name: 'x', act: () => process.exit(3) }) }] };\n");
  const s = await start(['--agents', 'fair-split', '--client-agents', 'random']);
  try {
    expect(s.out()).toMatch(/clients may choose: fair-split, random\)/);
    for (const ref of [exits, `${exits}#x`]) {
      const r = await post(s.url + '/reset', { agents: [ref] });
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/^agents\.0: not an agent this server lets clients choose \(allowed: fair-split, random\)/);
    }
    // alive, and playing: an HTTP session and a WebSocket one
    const h = await post(s.url + '/reset', { agents: ['random'], seed: 1 });
    expect(h.status).toBe(200);
    const step = await post(s.url + '/step', { session_id: h.json.metadata.session_id, action: { value: h.json.observation.legal[0].action } });
    expect(step.status).toBe(200);
    const ws = new WebSocket(s.url.replace('http', 'ws') + '/ws');
    const wsClosed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    const first = new Promise<Record<string, any>>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()) as Record<string, any>)));
    await new Promise((r, f) => (ws.once('open', r), ws.once('error', f)));
    ws.send(JSON.stringify({ type: 'reset', data: { seed: 2 } }));
    expect((await first).type).toBe('observation');
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    expect(await wsClosed).toBe(1001);
    expect(s.out()).toMatch(/arena: closed 2 sessions; stopped\n$/);
    expect(s.err()).toMatch(/closing the sessions \(Ctrl-C again to quit now\)/);
  } finally {
    s.child.kill('SIGKILL');
  }
}, 180_000);

test('a second Ctrl-C while the server is busy exits 130 at once', async () => {
  const started = join(dir, 'busy-started');
  const release = join(dir, 'busy-release');
  const busy = join(dir, 'busy.js');
  writeFileSync(
    busy,
    `const fs = require('node:fs');
module.exports = { agents: [{ name: 'busy', create: () => ({ name: 'busy', act: (obs, legal) => {
  fs.writeFileSync(${JSON.stringify(started)}, 'x');
  const until = Date.now() + 120000;
  while (Date.now() < until && !fs.existsSync(${JSON.stringify(release)})) {}
  return legal[0];
} }) }] };
`,
  );
  const s = await start(['--agents', busy], { ARENA_WATCHDOG_MS: '0' });
  try {
    const h = await post(s.url + '/reset', { seed: 1 });
    expect(h.status).toBe(200);
    // the busy agent's turn: the server's thread is stuck in its loop
    void fetch(s.url + '/step', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id: h.json.metadata.session_id, action: { value: h.json.observation.legal[0].action } }) }).catch(() => undefined);
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    s.child.kill('SIGINT');
    await s.stderrMatches(/closing the sessions \(Ctrl-C again to quit now\)/);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(130);
  } finally {
    writeFileSync(release, 'x');
    s.child.kill('SIGKILL');
  }
}, 180_000);
