/**
 * The fresh Python sandbox's spawn plumbing on the host side (issue 23): which program is
 * missing, the per-run uid, the rlimits a run's limits give, the request the harness reads, the
 * runs that end before any spawn, and the harness compiled once per Python (python-runner.ts;
 * only that last needs a sandbox, and is skipped without one). The flags of the bubblewrap command
 * line are checked where they bite in python-sandbox-flags.test.ts.
 */
import type * as fs from 'node:fs';
import { DEFAULT_PYTHON_PATHS, preparedHarness, pythonRequest, pythonRlimits, pythonSandboxProblem, pythonSpawnIds, runPythonBatch, type PythonBatch } from '../../src/sandbox/python-runner';
import * as compiled from '../../src/sandbox/python-compiled';
import { PYTHON_CHILD, PYTHON_HARNESS } from '../../src/sandbox/python-harness';
import type { ResolvedLimits } from '../../src/sandbox/limits';

const limits: ResolvedLimits = { timeMs: 1000, memoryMb: 128, outputBytes: 500 };

describe('pythonSandboxProblem', () => {
  test('null when both programs exist; otherwise each missing one named with its path', () => {
    expect(pythonSandboxProblem({ bwrap: '/bin/sh', python: '/bin/sh' })).toBeNull();
    expect(pythonSandboxProblem({ bwrap: '/nowhere/bwrap', python: '/bin/sh' })).toBe("the Python sandbox needs bwrap (/nowhere/bwrap): install Debian's bubblewrap and python3");
    expect(pythonSandboxProblem({ bwrap: '/nowhere/bwrap', python: '/nowhere/python3' })).toBe("the Python sandbox needs bwrap (/nowhere/bwrap), python (/nowhere/python3): install Debian's bubblewrap and python3");
  });
});

describe('pythonSpawnIds', () => {
  afterEach(() => jest.restoreAllMocks());

  test('as root: each run the next uid of 61000..62023 (wrapping), its gid the same', () => {
    jest.spyOn(process, 'getuid').mockReturnValue(0);
    const ids = Array.from({ length: 1100 }, () => pythonSpawnIds());
    for (const { uid, gid } of ids) {
      expect(Number.isInteger(uid)).toBe(true);
      expect(uid).toBeGreaterThanOrEqual(61000);
      expect(uid).toBeLessThan(61000 + 1024);
      expect(gid).toBe(uid);
    }
    // consecutive runs never share a uid: one step up, wrapping at the end of the range
    for (let i = 1; i < ids.length; i++) expect(ids[i].uid).toBe(61000 + ((ids[i - 1].uid! - 61000 + 1) % 1024));
  });

  test('each arena process starts at a random place in the range (two on one machine rarely share a uid at once)', () => {
    jest.spyOn(process, 'getuid').mockReturnValue(0);
    const firsts = new Set<number | undefined>();
    for (let i = 0; i < 20; i++) {
      jest.isolateModules(() => {
        const fresh = require('../../src/sandbox/python-runner') as typeof import('../../src/sandbox/python-runner');
        firsts.add(fresh.pythonSpawnIds().uid);
      });
    }
    // 20 draws of 1,024 all equal: about 1 in 10^57
    expect(firsts.size).toBeGreaterThan(1);
  });

  test('not root (or no getuid): nothing to set, the sandbox runs as the arena user', () => {
    jest.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(pythonSpawnIds()).toEqual({});
    jest.restoreAllMocks();
    const getuid = process.getuid;
    Object.defineProperty(process, 'getuid', { value: undefined, configurable: true, writable: true });
    try {
      expect(pythonSpawnIds()).toEqual({});
    } finally {
      Object.defineProperty(process, 'getuid', { value: getuid, configurable: true, writable: true });
    }
  });
});

describe('pythonRlimits', () => {
  test('CPU: the wall clock rounded up, at least 1 s; AS: memory + 64 MB; FSIZE: the output limit, at least 1 MB; 64 processes and files', () => {
    expect(pythonRlimits(limits, 7.2)).toEqual({ cpu: 8, as: (128 + 64) * 1024 * 1024, nproc: 64, fsize: 1_048_576, nofile: 64 });
    expect(pythonRlimits({ ...limits, memoryMb: 1, outputBytes: 5_000_000 }, 0.2)).toEqual({ cpu: 1, as: 65 * 1024 * 1024, nproc: 64, fsize: 5_000_000, nofile: 64 });
    expect(pythonRlimits(limits, 0).cpu).toBe(1); // RLIMIT_CPU 0 would be no time at all
  });
});

describe('pythonRequest', () => {
  const batch: PythonBatch = { program: 'def f(x):\n    return x', entry: 'f', inputs: [[1], ['a', { b: 2 }]], limits };

  test('a JSON request line and a fresh nonce line; wall clock and output cap from the limits', () => {
    const r = pythonRequest(batch);
    expect(r.nonce).toMatch(/^@@arena-[0-9a-f]{16}@@$/);
    expect(pythonRequest(batch).nonce).not.toBe(r.nonce);
    const [line, nonce, rest] = r.text.split('\n');
    expect([nonce, rest]).toEqual([r.nonce, '']);
    // two tests: 1000 ms each, plus two for the load and the slack, plus 3 s
    expect(r.wallMs).toBe(1000 * (2 + 2) + 3000);
    expect(r.outputCap).toBe(500 * 2 + 1_000_000);
    expect(JSON.parse(line)).toEqual({
      program: batch.program,
      entry: 'f',
      inputs: ['[1]', '["a",{"b":2}]'],
      check: null,
      helpers: null,
      timeMs: 1000,
      outputBytes: 500,
      rlimits: pythonRlimits(limits, 7),
    });
  });

  test("with check(): one more test's time, the helpers and the candidate's child code; helpers never without check()", () => {
    const r = pythonRequest({ ...batch, check: 'def check(c):\n    pass', helpers: 'H = 1' });
    expect(r.wallMs).toBe(1000 * (2 + 3) + 3000);
    expect(JSON.parse(r.text.split('\n')[0])).toMatchObject({ check: 'def check(c):\n    pass', helpers: 'H = 1', child: PYTHON_CHILD, rlimits: pythonRlimits(limits, 8) });
    expect(JSON.parse(pythonRequest({ ...batch, check: 'def check(c):\n    pass' }).text.split('\n')[0]).helpers).toBeNull();
    const noCheck = JSON.parse(pythonRequest({ ...batch, helpers: 'H = 1' }).text.split('\n')[0]);
    expect(noCheck.helpers).toBeNull();
    expect('child' in noCheck).toBe(false);
  });
});

describe('runPythonBatch before any spawn', () => {
  test('a missing program: sandbox-error naming it; a run cancelled before it starts: sandbox-error "cancelled"', async () => {
    expect(await runPythonBatch({ program: '', entry: 'f', inputs: [], limits, paths: { bwrap: '/nowhere/bwrap', python: '/nowhere/python3' } })).toEqual({
      code: 'sandbox-error',
      message: pythonSandboxProblem({ bwrap: '/nowhere/bwrap', python: '/nowhere/python3' }),
      outputs: [],
    });
    const stop = new AbortController();
    stop.abort();
    // the paths exist (the run would start were it not cancelled): /bin/sh stands in for both
    expect(await runPythonBatch({ program: '', entry: 'f', inputs: [], limits, signal: stop.signal, paths: { ...DEFAULT_PYTHON_PATHS, bwrap: '/bin/sh', python: '/bin/sh' } })).toEqual({ code: 'sandbox-error', message: 'cancelled', outputs: [] });
  });
});

describe('the spawn of the harness compile and of the sandbox (host side, nothing spawned)', () => {
  afterEach(() => jest.restoreAllMocks());

  test('as root, the harness is compiled with an empty environment and a run\'s unprivileged uid and gid', async () => {
    jest.spyOn(process, 'getuid').mockReturnValue(0);
    const compile = jest.spyOn(compiled, 'compiledPython').mockResolvedValue(null);
    const harness = await preparedHarness({ bwrap: '/nowhere/bwrap-spawn-host', python: '/nowhere/python3' });
    expect(harness.code).toBe(PYTHON_HARNESS); // no compiled code: the source
    expect(compile).toHaveBeenCalledTimes(1);
    const options = compile.mock.calls[0][3];
    expect(options.env).toEqual({});
    expect(options.uid).toBeGreaterThanOrEqual(61000);
    expect(options.uid).toBeLessThan(61000 + 1024);
    expect(options.gid).toBe(options.uid);
  });

  test('/lib64 is a link to usr/lib64 where the host has /usr/lib64, and absent where it has none', () => {
    /** pythonCommand's line, loaded where `existsSync` answers `has` (node:fs's own cannot be spied on). */
    const commandWhere = (has: (p: fs.PathLike) => boolean): string => {
      let line = '';
      jest.isolateModules(() => {
        jest.doMock('node:fs', () => ({ ...jest.requireActual<typeof fs>('node:fs'), existsSync: has }));
        const runner = jest.requireActual<typeof import('../../src/sandbox/python-runner')>('../../src/sandbox/python-runner');
        line = runner.pythonCommand({ bwrap: '/b', python: '/p' }).join(' ');
      });
      jest.dontMock('node:fs');
      return line;
    };
    const withLib64 = commandWhere((p) => p === '/usr/lib64');
    const without = commandWhere(() => false);
    expect(withLib64).toContain('--symlink usr/lib64 /lib64 --symlink usr/bin /bin');
    expect(without).not.toContain('lib64');
    expect(withLib64.replace(' --symlink usr/lib64 /lib64', '')).toBe(without);
  });
});

(pythonSandboxProblem() ? describe.skip : describe)('preparedHarness (needs bubblewrap and python3)', () => {
  test('the harness compiled once per Python and run as a loader; forgotten, compiled again', async () => {
    const a = await preparedHarness(DEFAULT_PYTHON_PATHS);
    expect(a.code).not.toBe(PYTHON_HARNESS);
    expect(a.prefix.length).toBeGreaterThan(0);
    const b = await preparedHarness(DEFAULT_PYTHON_PATHS);
    expect(b.prefix).toBe(a.prefix); // the same compile
    a.forget();
    const c = await preparedHarness(DEFAULT_PYTHON_PATHS);
    expect(c.prefix).not.toBe(a.prefix);
    expect(c.prefix.equals(a.prefix)).toBe(true);
  });

  test('a Python that cannot compile (another one than the compiled): the harness runs as its source', async () => {
    await preparedHarness(DEFAULT_PYTHON_PATHS);
    const none = await preparedHarness({ ...DEFAULT_PYTHON_PATHS, python: '/nowhere/python3' });
    expect(none.code).toBe(PYTHON_HARNESS);
    expect(none.prefix.length).toBe(0);
    expect(() => none.forget()).not.toThrow();
  });
});
