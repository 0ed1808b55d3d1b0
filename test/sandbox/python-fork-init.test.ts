/**
 * The fork server's machine-code init on x86-64 (python-fork-init.ts): the bytes are the assembly
 * of the source shown beside them, and every way a program's process can end reaches the host as
 * through a bubblewrap sandbox per program (its exit status, a signal, orphans reaped by the init
 * while the program still runs), and as through the slot loop's Python init, which the fork server
 * keeps for other machines. What the init may not give a program (capabilities, descriptors,
 * its memory, which is the server's) is python-slot-server.test.ts, for both kinds of server.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, pythonSandboxProblem, type Sandbox } from '../../src/sandbox';
import { FORK_INIT_X86_64_HEX, FORK_INIT_X86_64_SOURCE, PYTHON_MACHINE_INIT } from '../../src/sandbox/python-fork-init';
import { PYTHON_FORK_SERVER, PythonForkServer } from '../../src/sandbox/python-fork-server';
import { pythonCommand } from '../../src/sandbox/python-runner';
import type { SlotServerStart } from '../../src/sandbox/python-slot-server';

/** A fork server with the slot loop's Python init, as on a machine that is not x86-64. */
class PythonInitForkServer extends PythonForkServer {
  protected override prepare(): Promise<SlotServerStart> {
    const code = PYTHON_FORK_SERVER.replace('if posix.uname().machine != "x86_64":', 'if True:');
    expect(code).not.toBe(PYTHON_FORK_SERVER);
    return Promise.resolve({ command: pythonCommand(this.paths, code, { nestedUserNamespaces: true }), prefix: Buffer.alloc(0) });
  }
}

const assembler = spawnSync('as', ['--version']).status === 0 && spawnSync('objcopy', ['--version']).status === 0;

describe('the machine-code init', () => {
  (assembler ? test : test.skip)('its bytes are the assembly of its source (GNU as and objcopy)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fork-init-'));
    try {
      writeFileSync(join(dir, 'init.s'), FORK_INIT_X86_64_SOURCE);
      execFileSync('as', ['--64', '-o', join(dir, 'init.o'), join(dir, 'init.s')]);
      execFileSync('objcopy', ['-O', 'binary', '-j', '.text', join(dir, 'init.o'), join(dir, 'init.bin')]);
      expect(readFileSync(join(dir, 'init.bin')).toString('hex')).toBe(FORK_INIT_X86_64_HEX);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the server maps it from those bytes, readable and executable, never writable', () => {
    expect(PYTHON_MACHINE_INIT).toContain(`bytes.fromhex("${FORK_INIT_X86_64_HEX}")`);
    expect(PYTHON_MACHINE_INIT).toMatch(/mprotect\(page, 4096, 5\)/); // PROT_READ | PROT_EXEC
  });
});

(arch() === 'x64' ? describe : describe.skip)('every end of a program through the machine-code init is what a bubblewrap sandbox per program reports', () => {
  let fork: Sandbox;
  let fresh: Sandbox;
  const machineInit = new PythonForkServer();
  const pythonInit = new PythonInitForkServer();
  beforeAll(() => {
    expect(pythonSandboxProblem()).toBeNull();
    fork = createSandbox({ concurrency: 1, pythonMode: 'fork-server' });
    fresh = createSandbox({ concurrency: 1, pythonMode: 'fresh-sandbox' });
  });
  afterAll(() => Promise.all([fork.close(), fresh.close(), machineInit.close(), pythonInit.close()]));

  test("on x86-64 the run's init is the machine code: by the time the program runs, it has taken (almost) no page fault", async () => {
    // the Python init faults dozens of the server's pages in (its copy-on-write writes): the control
    const probe = 'def f():\n    init = [line.split()[1] for line in open("/proc/self/status") if line.startswith("PPid:")][0]\n    return int(open("/proc/%s/stat" % init).read().rsplit(")", 1)[1].split()[7])';
    const batch = { program: probe, entry: 'f', inputs: [[]], limits: { timeMs: 5000, memoryMb: 128, outputBytes: 1_000 } };
    const faults = async (server: PythonForkServer) => {
      const r = await server.run(batch);
      expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok' }] });
      return Number(r.outputs[0].text);
    };
    await faults(machineInit); // the first run maps the init's stack
    expect(await faults(machineInit)).toBeLessThan(5);
    expect(await faults(pythonInit)).toBeGreaterThan(20);
  });

  const ends: [string, string][] = [
    ['returns', 'def f():\n    return 7'],
    ['os._exit(3)', 'import os\ndef f():\n    os._exit(3)'],
    ['os._exit(0) while loading', 'import os\nos._exit(0)\ndef f():\n    return 1'],
    ['SIGTERM to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGTERM)'],
    ['SIGKILL to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGKILL)'],
    ['SIGSEGV to itself', 'import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGSEGV)'],
    // a grandchild orphaned to the init, which ends while the program runs: the init reaps it and waits on
    ['an orphan ends first', 'import os, time\ndef f():\n    if os.fork() == 0:\n        if os.fork() == 0:\n            time.sleep(0.1)\n            os._exit(9)\n        os._exit(0)\n    os.wait()\n    time.sleep(0.5)\n    return 5'],
    // an orphan still running when the program ends: it ends with the namespace, the run does not wait for it
    ['an orphan outlives it', 'import os, time\ndef f():\n    if os.fork() == 0:\n        if os.fork() == 0:\n            time.sleep(60)\n        os._exit(0)\n    os.wait()\n    return 6'],
  ];
  test.each(ends)('%s (and the same through the Python init kept for other machines)', async (_what, program) => {
    const run = (sb: Sandbox) => sb.code.run({ language: 'python', program, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 5000, memoryMb: 128 } });
    const [a, b] = [await run(fork), await run(fresh)];
    expect({ code: a.code, message: a.message, tests: a.tests.map((t) => [t.code, t.actual, t.message]) }).toEqual({ code: b.code, message: b.message, tests: b.tests.map((t) => [t.code, t.actual, t.message]) });
    const batch = { program, entry: 'f', inputs: [[]], limits: { timeMs: 5000, memoryMb: 128, outputBytes: 1_000_000 } };
    const [m, p] = [await machineInit.run(batch), await pythonInit.run(batch)];
    expect(m).toEqual(p);
  });
});
