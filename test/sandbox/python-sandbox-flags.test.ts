/**
 * Each isolation flag of the Python sandbox's bubblewrap command line (python-runner.ts
 * `pythonCommand`, `pythonArgv`) and of its spawn (`runPythonBatch`), checked where it bites,
 * issue 23: each test fails when its flag is dropped (checked by hand, one flag at a time). The
 * command runs a short probe in place of the harness, spawned as the arena spawns it (no
 * environment, the per-run uid). Skipped where bubblewrap or python3 is missing.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createSandbox } from '../../src/sandbox';
import { DEFAULT_PYTHON_PATHS, pythonCommand, pythonSandboxProblem, pythonSpawnIds, runPythonBatch } from '../../src/sandbox/python-runner';
import { spawnFiltered } from '../../src/sandbox/seccomp';
import { eventually, processesNamed } from './processes';
import { unfiltered } from './unfiltered';

const problem = pythonSandboxProblem();
const maybe = problem ? describe.skip : describe;
if (problem) console.warn(`python-sandbox-flags skipped: ${problem}`);


/**
 * Runs `code` in the sandbox as the arena does, with `options` over the arena's; its stdout parsed
 * as JSON. `filtered: false` leaves the seccomp filter out, to show what a namespace does alone.
 */
function probe(code: string, options: Omit<SpawnOptions, 'stdio'> = {}, filtered = true): Promise<unknown> {
  const command = pythonCommand(DEFAULT_PYTHON_PATHS, `import json, os, sys\n${code}`);
  return new Promise((resolve, reject) => {
    const spawnOptions = { stdio: ['ignore', 'pipe', 'pipe'] as ('pipe' | 'ignore')[], env: {}, ...pythonSpawnIds(), ...options };
    const child = filtered ? spawnFiltered(command, spawnOptions) : spawn(unfiltered(command)[0], unfiltered(command).slice(1), spawnOptions);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`the probe printed no JSON (exit status ${status}): ${out}${err}`));
      }
    });
  });
}

maybe('the Python sandbox: each flag of its command line', () => {
  test('the filesystem is /usr and the usual links to it, /proc and /dev: nothing of the host', async () => {
    // --ro-bind /usr, the /lib, /lib64 (where the host has it) and /bin links, --proc, --dev
    const root = (await probe(`print(json.dumps([sorted(os.listdir('/')), {p: os.readlink(p) for p in ('/bin', '/lib') if os.path.islink(p)}, os.path.exists('/proc/self/status'), os.path.exists('/dev/null')]))`)) as [string[], Record<string, string>, boolean, boolean];
    const lib64 = root[0].includes('lib64') ? ['lib64'] : [];
    expect(root).toEqual([['bin', 'dev', 'lib', ...lib64, 'proc', 'usr'].sort(), { '/bin': 'usr/bin', '/lib': 'usr/lib' }, true, true]);
    // /bin is what a program's shell needs
    expect(await probe(`import subprocess\nprint(json.dumps(subprocess.run('echo hi', shell=True, capture_output=True, text=True).stdout))`)).toBe('hi\n');
  });

  test('nothing is writable: / and /dev are read-only (--remount-ro), /usr is a read-only bind', async () => {
    const errnos = await probe(`import errno
out = []
for p in ('/escape', '/dev/escape', '/usr/escape'):
    try:
        open(p, 'w').write('x')
        out.append('written')
    except OSError as e:
        out.append(errno.errorcode[e.errno])
print(json.dumps(out))`);
    expect(errnos).toEqual(['EROFS', 'EROFS', 'EROFS']);
  });

  test('every namespace is unshared (--unshare-all): network, pids, mounts, IPC, host name, cgroups, users', async () => {
    const kinds = ['cgroup', 'ipc', 'mnt', 'net', 'pid', 'user', 'uts'];
    const inside = (await probe(`print(json.dumps([os.readlink('/proc/self/ns/' + k) for k in ${JSON.stringify(kinds)}]))`)) as string[];
    const host = kinds.map((k) => readlinkSync(`/proc/self/ns/${k}`));
    kinds.forEach((k, i) => {
      expect(inside[i]).toMatch(new RegExp(`^${k}:\\[\\d+\\]$`));
      expect(`${k} ${inside[i]}`).not.toBe(`${k} ${host[i]}`);
    });
  });

  describe('no network: a connection to a server of the host fails', () => {
    let server: Server;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    });
    afterAll(() => new Promise((r) => server.close(r)));

    const connect = (port: number): string => `import socket
try:
    socket.create_connection(('127.0.0.1', ${port}), timeout=2)
    print(json.dumps('connected'))
except OSError as e:
    print(json.dumps([type(e).__name__, e.errno]))`;

    test('127.0.0.1 is unreachable and the server sees nothing: by the network namespace alone (no filter), and the filter refuses the socket itself', async () => {
      const { port } = server.address() as AddressInfo;
      // the namespace alone: a socket, on the sandbox's own loopback (bwrap brings it up), where nothing listens
      expect(await probe(connect(port), {}, false)).toEqual(['ConnectionRefusedError', 111]);
      // as the arena runs it: no socket at all (EPERM)
      expect(await probe(connect(port))).toEqual(['PermissionError', 1]);
      expect(connections).toBe(0);
    });
  });

  test("the program's session is the sandbox's own (--new-session: no terminal of the host's session to push input into with TIOCSTI)", async () => {
    // its leader is the sandbox's init (pid 1 inside); in the host's session the leader is outside the namespace: 0
    expect(await probe(`print(json.dumps([os.getpid(), os.getsid(0), os.getpgid(0)]))`)).toEqual([2, 1, 1]);
  });

  test("none of bwrap's own environment reaches the program (--clearenv)", async () => {
    // the arena spawns bwrap with no environment; were it given one, the program still gets none of it
    const env = (await probe(`print(json.dumps(sorted(os.environ.items())))`, { env: { ARENA_FLAGS_SECRET: 'x', PATH: '/usr/bin', PYTHONPATH: '/usr' } })) as [string, string][];
    // only what bwrap (PWD), Python's locale coercion (LC_CTYPE, where it happens) and the command (--setenv) set
    expect(env.filter(([n]) => n !== 'LC_CTYPE')).toEqual([['PWD', '/'], ['PYTHONDONTWRITEBYTECODE', '1']]);
  });

  test('the program starts in / (--chdir), wherever the arena runs', async () => {
    expect(await probe(`print(json.dumps(os.getcwd()))`, { cwd: '/usr/lib' })).toBe('/');
  });

  test('Python runs isolated (-I) and without site (-S): nothing beyond the standard library is importable', async () => {
    const [isolated, noSite, site, extra] = (await probe(`print(json.dumps([sys.flags.isolated, sys.flags.no_site, 'site' in sys.modules, [p for p in sys.path if 'packages' in p or p in ('', '.')]]))`)) as [number, number, boolean, string[]];
    expect([isolated, noSite, site, extra]).toEqual([1, 1, false, []]);
  });

  test('bwrap dies with the arena (--die-with-parent): a sandbox outlives no killed host', async () => {
    const marker = `dwp${randomBytes(5).toString('hex')}`;
    // without the filter (the stand-in host has no descriptor to feed it): --die-with-parent is bwrap's own
    const cmd = unfiltered(pythonCommand(DEFAULT_PYTHON_PATHS, `import time\nopen('/proc/self/comm', 'w').write(${JSON.stringify(marker)})\ntime.sleep(60)`));
    // a stand-in for the arena: a process that spawns the sandbox, then is killed with SIGKILL
    const host = spawn(process.execPath, ['-e', `require('child_process').spawn(process.argv[1], JSON.parse(process.argv[2]), { stdio: 'ignore', env: {}, ...JSON.parse(process.argv[3]) }); setInterval(() => {}, 1000);`, cmd[0], JSON.stringify(cmd.slice(1)), JSON.stringify(pythonSpawnIds())], { stdio: 'ignore' });
    try {
      expect(await eventually(() => processesNamed(marker).length > 0, 20_000)).toBe(true);
      host.kill('SIGKILL');
      expect(await eventually(() => processesNamed(marker).length === 0, 10_000)).toBe(true);
    } finally {
      host.kill('SIGKILL');
      for (const pid of processesNamed(marker)) process.kill(Number(pid), 'SIGKILL');
    }
  }, 40_000);

  test("a fresh sandbox's processes hold none of the host's environment, bwrap's own included (runPythonBatch spawns it with none)", async () => {
    const r = await runPythonBatch({
      program: `import os
def f():
    found = []
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                found += [e.split(b'=')[0].decode('latin1') for e in open('/proc/%s/environ' % p, 'rb').read().split(b'\\0') if e]
            except OSError as e:
                found.append(type(e).__name__)
    return sorted(set(found))`,
      entry: 'f',
      inputs: [[]],
      limits: { timeMs: 5000, memoryMb: 128, outputBytes: 100_000 },
    });
    expect(r).toMatchObject({ code: 'ok', outputs: [{ code: 'ok' }] });
    const names = JSON.parse(r.outputs[0].text!) as string[];
    expect(names).toContain('PYTHONDONTWRITEBYTECODE'); // the probe did read environments
    expect(names.filter((n) => !['PWD', 'LC_CTYPE', 'PYTHONDONTWRITEBYTECODE'].includes(n))).toEqual([]);
  });
});

// A user namespace of the program's own: its uid mapped there by a child (the parent namespace's
// rule lets a process map its own uid), a tmpfs mounted, files written: RAM without limit.
const TMPFS_STORE = `
import os, ctypes
def f(n):
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    r, w = os.pipe()
    r2, w2 = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.read(r, 1)
        for name, data in (('setgroups', 'deny'), ('uid_map', '0 %d 1' % uid), ('gid_map', '0 %d 1' % gid)):
            try:
                with open('/proc/%d/%s' % (os.getppid(), name), 'w') as fh:
                    fh.write(data)
            except OSError:
                pass
        os.write(w2, b'1')
        os._exit(0)
    made = libc.unshare(0x10000000 | 0x00020000)  # CLONE_NEWUSER | CLONE_NEWNS
    errno = ctypes.get_errno()
    os.write(w, b'1')
    os.read(r2, 1)
    os.waitpid(pid, 0)
    if made != 0:
        return ['no user namespace', errno]
    if libc.mount(b'none', b'/dev', b'tmpfs', 0, None) != 0:
        return ['no mount', ctypes.get_errno()]
    for i in range(n):
        with open('/dev/f%d' % i, 'wb') as fh:
            fh.write(b'x' * (1 << 20))
    return ['stored', n]
`;

maybe('no user namespace of its own for a program (--unshare-user --disable-userns; the slot servers: runs without a uid mapping)', () => {
  for (const pythonMode of ['fresh-sandbox', 'launcher', 'fork-server'] as const) {
    test(`${pythonMode}: the tmpfs store (300 MB under a 128 MB limit before) cannot make its namespace`, async () => {
      const sb = createSandbox({ concurrency: 1, pythonMode });
      try {
        const r = await sb.code.run({ language: 'python', program: TMPFS_STORE, entry: 'f', tests: [{ input: [64] }], limits: { timeMs: 20_000, memoryMb: 128 } });
        expect(r.code).toBe('ok');
        // ENOSPC: the sandbox's limit of one user namespace, its own; EPERM: a run's namespace maps no uid
        expect(r.tests[0].actual).toEqual(['no user namespace', pythonMode === 'fresh-sandbox' ? 28 : 1]);
      } finally {
        await sb.close();
      }
    }, 60_000);
  }

  test('the flag is on the command line of every sandbox but the slot servers (which make a user namespace per run)', () => {
    expect(pythonCommand(DEFAULT_PYTHON_PATHS)).toEqual(expect.arrayContaining(['--unshare-user', '--disable-userns']));
    expect(pythonCommand(DEFAULT_PYTHON_PATHS, 'pass', { nestedUserNamespaces: true })).not.toContain('--disable-userns');
  });
});
