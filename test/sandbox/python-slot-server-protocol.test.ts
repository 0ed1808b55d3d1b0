/**
 * The host side of a per-slot Python server (python-slot-server.ts `PythonSlotServer`), against
 * fake servers (bash scripts speaking the protocol, or breaking it): what the server does wrong
 * is the sandbox's fault (sandbox-error), what the program's process did is the program's (the
 * exit status the server reports after "ready"), and the host never waits forever.
 */
import { DEFAULT_PYTHON_PATHS, type PythonBatch } from '../../src/sandbox/python-runner';
import { PythonSlotServer, type SlotServerStart } from '../../src/sandbox/python-slot-server';
import type { RawRun } from '../../src/sandbox/raw-run';
import * as seccomp from '../../src/sandbox/seccomp';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './processes';

const TOKEN = '0123456789abcdef0123456789abcdef';

/** Ends a run as the real server does: the token on stdout and stderr, then `done <status>` on fd 3. */
const end = (status: number | string): string => `printf '\\n%s\\n' ${TOKEN}; printf '\\n%s\\n' ${TOKEN} >&2; echo "done ${status} ${TOKEN}" >&3`;

/** A server started with `script` (bash); counts the runs that ended before "ready". */
class FakeServer extends PythonSlotServer {
  neverReadyCalls = 0;
  starts = 0;
  constructor(private readonly script: string) {
    super(DEFAULT_PYTHON_PATHS, 'the fake server');
  }
  protected prepare(): Promise<SlotServerStart> {
    this.starts++;
    return Promise.resolve({ command: ['/bin/bash', '-c', this.script], prefix: Buffer.alloc(0) });
  }
  protected override neverReady(): void {
    this.neverReadyCalls++;
  }
}

const servers: FakeServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

function fake(script: string): FakeServer {
  const s = new FakeServer(script);
  servers.push(s);
  return s;
}

/**
 * Whether `s`'s server process or one of its pipes keeps the host process alive (a ref'd libuv
 * handle), or null while it has no server. This server's own handles, not a count of the host's:
 * an earlier test's server may still be closing.
 */
function holding(s: FakeServer): boolean | null {
  const child = (s as unknown as { child: ChildProcess | null }).child;
  if (!child) return null;
  return [child, ...child.stdio].some((h) => (h as unknown as { _handle?: { hasRef?: () => boolean } } | null)?._handle?.hasRef?.() === true);
}

const batch = (timeMs = 1000, signal?: AbortSignal): PythonBatch => ({ program: 'def f():\n    return 1', entry: 'f', inputs: [[]], limits: { timeMs, memoryMb: 64, outputBytes: 1000 }, signal });

/** The server reads the request (JSON line, nonce line), says "ready" as the harness would, then does `then`. */
const afterReady = (then: string): string => `echo ready >&3; while read -r request && read -r nonce; do printf '%sready\\n' "$nonce"; ${then}; done`;

describe('per-slot server host: the server\'s faults are ours', () => {
  test('a server that never says ready: sandbox-error with the last line of its stderr; the next run tries to start it again', async () => {
    const s = fake('echo "first line" >&2; echo "no user namespaces here" >&2; exit 1');
    const r = await s.run(batch());
    expect(r).toEqual({ code: 'sandbox-error', message: 'the fake server did not start: no user namespaces here', outputs: [] });
    await s.run(batch());
    expect(s.starts).toBe(2);
  });

  test('a server that ends with a run in flight: sandbox-error naming it, not a fault of the program', async () => {
    const s = fake(afterReady('exit 3'));
    const r = await s.run(batch());
    expect(r).toEqual({ code: 'sandbox-error', message: 'the fake server ended (exit status 3)', outputs: [] });
  });

  test('a server that says on its channel what it never says: sandbox-error, the server killed and started again for the next run', async () => {
    const s = fake(`echo ready >&3; read -r request; read -r nonce; echo "finished, honest" >&3; exec sleep 30`);
    const r = await s.run(batch());
    expect(r).toEqual({ code: 'sandbox-error', message: 'the fake server broke its protocol', outputs: [] });
    await s.run(batch());
    expect(s.starts).toBe(2);
  });

  test('a run that ended before the harness said "ready" is the sandbox\'s (no program code ran), and the server is told', async () => {
    const s = fake(`echo ready >&3; while read -r request && read -r nonce; do ${end(1)}; done`);
    const r = await s.run(batch());
    expect(r.code).toBe('sandbox-error');
    expect(r.message).toMatch(/did not start/);
    expect(s.neverReadyCalls).toBe(1);
  });

  test('a server that never answers: the wall clock ends the run as a timeout of the program (its process was running) and kills the server', async () => {
    const s = fake(afterReady('exec sleep 60'));
    const r = await s.run(batch(100)); // wall clock: 100 ms x (1 + 2) + 3 s
    expect(r.code).toBe('timeout');
    expect(s.neverReadyCalls).toBe(0);
  });

  test('cancelled mid-run (or while the server starts): sandbox-error "cancelled"; so is a batch cancelled before it runs', async () => {
    const s = fake(afterReady('exec sleep 60'));
    const stop = new AbortController();
    const pending = s.run(batch(1000, stop.signal));
    setTimeout(() => stop.abort(), 200);
    expect(await pending).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
    const early = new AbortController();
    early.abort();
    expect(await s.run(batch(1000, early.signal))).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
  });

  test('an idle server does not keep the host process alive (a command that is done exits without closing the sandbox); a run starting it does', async () => {
    const s = fake(`echo ready >&3; while read -r request && read -r nonce; do printf '%sready\\n' "$nonce"; sleep 0.3; ${end(0)}; done`);
    const pending = s.run(batch());
    await eventually(() => holding(s) === true, 5000);
    expect(holding(s)).toBe(true); // the server and its pipes, while the run is in flight
    expect((await pending).code).toBe('exited');
    expect(holding(s)).toBe(false);
    const again = s.run(batch()); // a run on the idle server holds it again
    await eventually(() => holding(s) === true, 5000);
    expect(holding(s)).toBe(true);
    expect((await again).code).toBe('exited');
    expect(holding(s)).toBe(false);
  });

  test("a run's wall clock ends with it (no timer left behind to kill the idle server later)", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const s = fake(afterReady(end(0)));
    await s.run(batch()); // started before counting: starting may leave timers of its own
    const before = timers();
    expect((await s.run(batch())).code).toBe('exited');
    expect(timers()).toBe(before);
  });

  test('a server started for a run cancelled before it was sent is left idle (it does not keep the host process alive)', async () => {
    const s = fake(afterReady(end(0)));
    const early = new AbortController();
    early.abort();
    expect(await s.run(batch(1000, early.signal))).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
    expect(holding(s)).toBe(false);
  });

  test('a closed server runs nothing', async () => {
    const s = fake(afterReady(end(0)));
    await s.close();
    expect(await s.run(batch())).toEqual({ code: 'sandbox-error', message: 'the fake server is closed', outputs: [] });
  });
});

describe('per-slot server host: garbage from the server is never trusted', () => {
  test('a control line that is not exactly `done <digits> <32 hex>` ends the run as sandbox-error (the server restarted), whatever it claims', async () => {
    const lines = [`done 0 ${TOKEN}x`, `xdone 0 ${TOKEN}`, `done 0 ${TOKEN.slice(1)}`, `done 0 ${TOKEN.toUpperCase()}`, `done -1 ${TOKEN}`, `done  0 ${TOKEN}`, `done 0`, '', 'ready'];
    for (const line of lines) {
      // the tokens come first, so a line taken for an end would finish the run as the program's
      const s = fake(afterReady(`printf '\\n%s\\n' ${TOKEN}; printf '\\n%s\\n' ${TOKEN} >&2; echo '${line}' >&3; exec sleep 30`));
      expect([line, await s.run(batch())]).toEqual([line, { code: 'sandbox-error', message: 'the fake server broke its protocol', outputs: [] }]);
    }
  });

  test('an end whose status has several digits is read whole (137: SIGKILL)', async () => {
    const r = await fake(afterReady(end(137))).run(batch());
    expect(r).toMatchObject({ code: 'killed-by-signal', message: expect.stringMatching(/SIGKILL/) });
  });

  test('an end said with no run in flight (before ready here: nothing can race it) kills the server: sandbox-error, never taken for a run\'s end', async () => {
    const s = fake(`echo "done 0 ${TOKEN}" >&3; ${afterReady(end(0))}`);
    // killed on that line; its "ready", written next, may still be read before its end is seen
    expect(await s.run(batch())).toEqual({ code: 'sandbox-error', message: expect.stringMatching(/^the fake server (did not start: exit status SIGKILL|ended \(SIGKILL\))$/), outputs: [] });
  });

  test('output between runs is nobody\'s: it is dropped, and the next run is answered by its own end', async () => {
    const s = fake(afterReady(`${end(0)}; echo between; echo between >&2`));
    for (let i = 0; i < 3; i++) expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(1);
  });

  test('the end is taken only once both streams reached its token, whatever order the pipes deliver them in', async () => {
    const s = fake(afterReady(`echo "done 3 ${TOKEN}" >&3; sleep 0.2; printf '\\n%s\\n' ${TOKEN}; sleep 0.2; printf '\\n%s\\n' ${TOKEN} >&2`));
    expect(await s.run(batch())).toMatchObject({ code: 'exited', message: expect.stringMatching(/exit status 3/) });
    expect(s.neverReadyCalls).toBe(0);
  });

  test("the run is judged on all of the program's output: the end on fd 3 may come before the last of stdout or stderr", async () => {
    const result = `{"code":"ok","outputs":[{"code":"ok","text":"1"}]}`;
    // done first; stderr's end next; the result line and stdout's end last
    const late = fake(afterReady(`echo "done 0 ${TOKEN}" >&3; sleep 0.2; printf '\\n%s\\n' ${TOKEN} >&2; sleep 0.2; printf '%s%s\\n' "$nonce" '${result}'; printf '\\n%s\\n' ${TOKEN}`));
    expect(await late.run(batch())).toEqual({ code: 'ok', outputs: [{ code: 'ok', text: '1' }] });
    // done first; stdout's end next; stderr's last line and end last
    const detail = fake(afterReady(`echo "done 3 ${TOKEN}" >&3; printf '\\n%s\\n' ${TOKEN}; sleep 0.2; echo 'the last words' >&2; printf '\\n%s\\n' ${TOKEN} >&2`));
    expect((await detail.run(batch())).message).toBe("the program ended the sandbox's process (exit status 3) before its results were written: the last words");
  });

  test("the server's end token is never part of what the program wrote, and stderr's last line (of its last 64 KiB) says why it ended", async () => {
    const quiet = await fake(afterReady(end(3))).run(batch());
    expect(quiet.message).toBe("the program ended the sandbox's process (exit status 3) before its results were written");
    const long = await fake(afterReady(`echo early >&2; head -c 70000 /dev/zero | tr '\\0' x >&2; echo >&2; echo late >&2; ${end(3)}`)).run(batch());
    expect(long.message).toBe("the program ended the sandbox's process (exit status 3) before its results were written: late");
  });

  test('more output than the cap on stdout or on stderr: output-limit (the program was running), the server killed and started again', async () => {
    const flood = (to: string) => afterReady(`head -c 1100000 /dev/zero | tr '\\0' x ${to}; exec sleep 30`);
    const out = fake(flood(''));
    expect(await out.run(batch())).toMatchObject({ code: 'output-limit' });
    expect(await fake(flood('>&2')).run(batch())).toMatchObject({ code: 'output-limit' });
  });

  test('output of exactly the cap on stdout or on stderr is the program\'s to end; one character more is output-limit (the end token counts: the host cannot tell it from output until it is whole)', async () => {
    // cap = 2 x outputBytes (1000) + 1,000,000; stdout holds "<nonce>ready\n" (26 + 6) and the end token line (1 + 32 + 1)
    const cap = 2 * 1000 + 1_000_000;
    const mark = 34;
    const write = (n: number, to: string) => afterReady(`head -c ${n} /dev/zero | tr '\\0' x ${to}; ${end(5)}`);
    const at = async (n: number, to: string) => (await fake(write(n, to)).run(batch())).code;
    expect(await at(cap - 32 - mark, '')).toBe('exited');
    expect(await at(cap - 32 - mark + 1, '')).toBe('output-limit');
    expect(await at(cap - mark, '>&2')).toBe('exited');
    expect(await at(cap - mark + 1, '>&2')).toBe('output-limit');
  });

  test('a server that exits before ready without a word: sandbox-error naming its exit status; one that cannot be spawned: the spawn error', async () => {
    expect(await fake('exit 4').run(batch())).toEqual({ code: 'sandbox-error', message: 'the fake server did not start: exit status 4', outputs: [] });
    class Missing extends PythonSlotServer {
      protected prepare(): Promise<SlotServerStart> {
        return Promise.resolve({ command: ['/nonexistent/slot-server'], prefix: Buffer.alloc(0) });
      }
    }
    const m = new Missing(DEFAULT_PYTHON_PATHS, 'the missing server');
    expect(await m.run(batch())).toEqual({ code: 'sandbox-error', message: 'the missing server did not start: spawn /nonexistent/slot-server ENOENT', outputs: [] });
  });
});

/**
 * A run's init (a Python below the fake server) whose child holds `mb` MB for `seconds`, then both
 * end: the processes of the run that the host's memory watch counts (the init is not counted).
 */
const hog = (mb: number, seconds: number): string => `/usr/bin/python3 -c 'import os, time
if os.fork() == 0:
    held = b"x" * (${mb} << 20)
    time.sleep(${seconds})
    os._exit(0)
os.wait()' </dev/null >/dev/null 2>&1 3>&-`; // the pipes are not held: a killed server's end is seen at once

describe("per-slot server host: the memory of the run's processes", () => {
  test('a child of the run holding 200 MB, over the run\'s 64 + 64 MB: memory-limit, saying what they held; the server is killed and started again', async () => {
    const s = fake(afterReady(`${hog(200, 2)}; ${end(0)}`));
    for (let i = 1; i <= 2; i++) {
      const r = await s.run(batch(10_000)); // a wall clock (33 s) that a loaded machine does not reach first
      expect(r.code).toBe('memory-limit');
      const held = Number(/^the run's processes together held (\d+\.\d) MB, over its limit of 128 MB \(memoryMb 64 and 64 MB for the interpreter\)$/.exec(r.message ?? '')?.[1]);
      expect(held).toBeGreaterThan(128);
      expect(s.starts).toBe(i);
    }
  });

  test("each run is held to its own limit: a run's watch ends with it (a 200 MB run of memoryMb 512 after one of memoryMb 64 that ended)", async () => {
    // the first run holds nothing; the second, 200 MB for a second
    const s = fake(afterReady(`n=$((n + 1)); if [ $n -ge 2 ]; then ${hog(200, 1)}; fi; ${end(0)}`));
    expect((await s.run(batch())).code).toBe('exited');
    const big: PythonBatch = { ...batch(), limits: { timeMs: 10_000, memoryMb: 512, outputBytes: 1000 } };
    expect((await s.run(big)).code).toBe('exited');
    expect(s.starts).toBe(1);
  });
});

describe("per-slot server host: the program's process's end is the program's", () => {
  const runs = (status: number): Promise<RawRun> => fake(afterReady(end(status))).run(batch());

  test('killed by a signal (128 + n after "ready"): killed-by-signal, or the code the signal means', async () => {
    expect(await runs(128 + 9)).toMatchObject({ code: 'killed-by-signal', message: expect.stringMatching(/SIGKILL/) });
    expect(await runs(128 + 24)).toMatchObject({ code: 'timeout' }); // SIGXCPU: RLIMIT_CPU
    expect(await runs(128 + 25)).toMatchObject({ code: 'output-limit' }); // SIGXFSZ: RLIMIT_FSIZE
    expect(await runs(128 + 11)).toMatchObject({ code: 'runtime-error', message: expect.stringMatching(/SIGSEGV/) });
  });

  test('an exit after "ready" without a result: exited, with the status', async () => {
    expect(await runs(3)).toMatchObject({ code: 'exited', message: expect.stringMatching(/exit status 3/) });
  });

  test('runs follow each other on one server: each is answered by its own end', async () => {
    const s = fake(afterReady(end(128 + 9)));
    for (let i = 0; i < 3; i++) expect((await s.run(batch())).code).toBe('killed-by-signal');
    expect(s.starts).toBe(1);
    expect(s.neverReadyCalls).toBe(0);
  });
});

/** A fake server whose scripts change from one start to the next, whose start can be held back or refused, and that can be restarted. */
class StagedServer extends PythonSlotServer {
  starts = 0;
  gate: Promise<void> = Promise.resolve();
  constructor(private readonly scripts: (string | { refuse: string })[]) {
    super(DEFAULT_PYTHON_PATHS, 'the staged server');
  }
  protected async prepare(): Promise<SlotServerStart | string> {
    const script = this.scripts[Math.min(this.starts++, this.scripts.length - 1)];
    await this.gate;
    return typeof script === 'string' ? { command: this.command(script), prefix: Buffer.alloc(0) } : script.refuse;
  }
  /** The command line that starts `script`. */
  command = (script: string): string[] => ['/bin/bash', '-c', script];
  restartNow(): void {
    this.restart();
  }
}

function staged(...scripts: (string | { refuse: string })[]): StagedServer {
  const s = new StagedServer(scripts);
  servers.push(s as unknown as FakeServer);
  return s;
}

describe("per-slot server host: the server's life cycle", () => {
  /** Resolves once every queued microtask ran: a run on a started server is then in flight. */
  const settled = (): Promise<void> => new Promise((r) => setImmediate(r));

  test('one batch at a time: a second run while one is in flight is refused (the pool\'s slot never does it)', async () => {
    const s = fake(afterReady(`sleep 0.3; ${end(0)}`));
    await s.run(batch()); // started
    const first = s.run(batch());
    await settled();
    await expect(s.run(batch())).rejects.toThrow('the fake server runs one batch at a time');
    expect((await first).code).toBe('exited');
  });

  test('closed mid-run: the run ends as cancelled', async () => {
    const s = fake(afterReady(`sleep 0.3; ${end(0)}`));
    await s.run(batch()); // started
    const pending = s.run(batch());
    await settled();
    await s.close();
    expect(await pending).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
  });

  test('closed while the server is being prepared: nothing is spawned, the run says so', async () => {
    let open = (): void => undefined;
    const s = staged(afterReady(end(0)));
    s.gate = new Promise((r) => (open = r));
    const pending = s.run(batch());
    await new Promise((r) => setTimeout(r, 50));
    await s.close();
    open();
    expect(await pending).toEqual({ code: 'sandbox-error', message: 'the staged server did not start: the staged server is closed', outputs: [] });
  });

  test('a server that cannot be prepared: sandbox-error saying why; the next run prepares it again', async () => {
    const s = staged({ refuse: 'no harness for this Python' }, afterReady(end(0)));
    expect(await s.run(batch())).toEqual({ code: 'sandbox-error', message: 'the staged server did not start: no harness for this Python', outputs: [] });
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(2);
  });

  test("a dead server's unfinished control line is not read with the next server's", async () => {
    const s = staged(`printf 'rea' >&3; exit 1`, afterReady(end(0)));
    expect((await s.run(batch())).code).toBe('sandbox-error');
    expect((await s.run(batch())).code).toBe('exited');
  });

  test('a server that closed its stdin before ready: the request cannot be written (no crash of the host), the run ends with the server', async () => {
    const s = fake('exec 0<&-; echo ready >&3; sleep 0.3; exit 3');
    expect(await s.run(batch())).toEqual({ code: 'sandbox-error', message: 'the fake server ended (exit status 3)', outputs: [] });
  });

  test("cancelling a run's signal after the run ended changes nothing: the server goes on", async () => {
    const s = fake(afterReady(end(0)));
    const stop = new AbortController();
    expect((await s.run(batch(1000, stop.signal))).code).toBe('exited');
    stop.abort();
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(1);
  });

  test('restart between runs: the server is killed and the next run starts a fresh one; during a run it changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slot-restart-'));
    chmodSync(dir, 0o777); // the server runs under the sandbox's uid
    const s = staged(`echo $$ >> ${dir}/pids; ${afterReady(`sleep 0.3; ${end(0)}`)}`);
    expect((await s.run(batch())).code).toBe('exited');
    s.restartNow();
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(2);
    const first = Number(readFileSync(join(dir, 'pids'), 'utf8').split('\n')[0]);
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(first); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(first)).toBe(false);
    const pending = s.run(batch());
    await settled();
    s.restartNow(); // a run is in flight: not now
    expect((await pending).code).toBe('exited');
    expect(s.starts).toBe(2);
    s.restartNow();
    s.restartNow(); // nothing to kill: nothing happens
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(3);
    rmSync(dir, { recursive: true, force: true });
  });

  test("the end of a restarted server, seen while the next one is being prepared, is not the next one's: it starts once", async () => {
    const s = staged(afterReady(end(0)));
    expect((await s.run(batch())).code).toBe('exited');
    s.restartNow();
    let open = (): void => undefined;
    s.gate = new Promise((r) => (open = r));
    const pending = s.run(batch());
    await new Promise((r) => setTimeout(r, 1000)); // the killed server's end is seen meanwhile
    open();
    expect((await pending).code).toBe('exited');
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(2);
  });

  test("the end of a restarted server, seen during the next run, is not that run's end", async () => {
    // the killed server's end is seen once every holder of its pipes is gone: its background sleep, 1 s on
    const s = staged(`sleep 1 & ${afterReady(end(0))}`, afterReady(`sleep 2; ${end(0)}`));
    expect((await s.run(batch())).code).toBe('exited');
    s.restartNow();
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(2);
  });

  test("a server restarted while it starts: that run fails, the next one's start is kept (the server it started is the one used and closed, no other is spawned)", async () => {
    const s = staged(`sleep 0.5; ${afterReady(end(0))}`, afterReady(end(0)));
    const first = s.run(batch());
    await new Promise((r) => setTimeout(r, 100)); // spawned, not ready yet
    s.restartNow();
    const second = s.run(batch());
    expect(await first).toMatchObject({ code: 'sandbox-error', message: expect.stringMatching(/^the staged server did not start/) });
    expect((await second).code).toBe('exited');
    expect((await s.run(batch())).code).toBe('exited');
    expect(s.starts).toBe(2);
  });

  test("a restarted server's late words (stdout, stderr, its channel), seen during the next run, are not that run's", async () => {
    // the first server leaves a job behind that, once the server is killed, floods stdout past the cap, writes on stderr and breaks the protocol on fd 3
    const late = `(sleep 0.5; head -c 1100000 /dev/zero | tr '\\0' x; echo 'old words' >&2; echo 'not a done line' >&3) &`;
    const s = staged(`${late} ${afterReady(end(0))}`, afterReady(`sleep 1.5; ${end(3)}`));
    expect((await s.run(batch())).code).toBe('exited');
    s.restartNow();
    expect(await s.run(batch())).toEqual({ code: 'exited', message: "the program ended the sandbox's process (exit status 3) before its results were written", outputs: [] });
    expect(s.starts).toBe(2);
  });

  test("a server whose command carries the seccomp filter (descriptor 9: a pipe written and closed at the spawn): run after run, the closed pipe gathers no listener", async () => {
    const original = seccomp.spawnFiltered;
    let child: ChildProcess | undefined;
    const spawn = jest.spyOn(seccomp, 'spawnFiltered').mockImplementation((command, options) => (child = original(command, options)));
    try {
      // bash gets --seccomp as its $0 (unused): spawnFiltered opens descriptor 9 for it; bash closes it unread, as bwrap closes it once read
      const s = staged(`exec 9<&-; ${afterReady(end(0))}`);
      s.command = (script) => ['/bin/bash', '-c', script, '--seccomp'];
      for (let i = 0; i < 3; i++) expect((await s.run(batch())).code).toBe('exited');
      const pipe = (child!.stdio as unknown as (NodeJS.EventEmitter & { destroyed: boolean })[])[seccomp.SECCOMP_FD];
      expect(pipe.destroyed).toBe(true);
      expect(pipe.listenerCount('connect')).toBe(0);
    } finally {
      spawn.mockRestore();
    }
  });

  test("a server stopped before the harness said ready (here by the wall clock): sandbox-error named from stderr's last line", async () => {
    const r = await fake(`echo ready >&3; read -r request; read -r nonce; seq 1 20000 >&2; exec sleep 60`).run(batch(100));
    expect(r).toEqual({ code: 'sandbox-error', message: 'the Python sandbox did not start: 20000', outputs: [] });
  });
});
