/**
 * The PyTorch peer of the update bench (bench/pytorch-update.py) as a child process: started once
 * with the fixture's data, then asked for timed windows of plain or `foreach` Adam steps, so its
 * windows interleave with the arena's in one bench run.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';

/** What the peer reports once it is ready. */
export interface PeerInfo {
  torch: string;
  /** Real paths of the BLAS/LAPACK libraries mapped into the Python process (/proc/self/maps). */
  blas: string[];
  /** torch's build flag BLAS_INFO (what it was compiled against, not what it loaded). */
  blasBuild: string;
  threads: number;
  /** Loss and gradient norm of the first step from the fixture's weights. */
  check: { loss: number; gradNorm: number };
}

/** One timed window. */
export interface Window {
  steps: number;
  wall: number;
  cpu: number;
}

/** The Python that runs the peer: $PYTHON, else Debian's (python3-torch installs there), else python3 on the PATH. */
export const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** A running peer. */
export class TorchPeer {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: AsyncIterator<string>,
    private readonly rl: Interface,
    readonly info: PeerInfo,
  ) {}

  /**
   * Starts bench/pytorch-update.py on the data in `dir` with one BLAS and one torch thread;
   * resolves the peer, or a reason why there is none (torch missing, the script failing).
   */
  static async start(dir: string): Promise<TorchPeer | { reason: string }> {
    const script = join(__dirname, '..', '..', 'bench', 'pytorch-update.py');
    const child = spawn(PYTHON, [script, '--data', dir], { env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const failed = new Promise<{ reason: string }>((resolve) => {
      child.on('error', (e) => resolve({ reason: `${PYTHON} could not run (${e.message})` }));
      child.on('exit', (code) => resolve({ reason: `bench/pytorch-update.py exited ${code}: ${stderr.trim().split('\n').pop() ?? ''}` }));
    });
    const rl = createInterface({ input: child.stdout });
    const lines = rl[Symbol.asyncIterator]();
    const first = await Promise.race([lines.next().then((r) => (r.done ? null : r.value)), failed]);
    if (first === null) return failed;
    if (typeof first !== 'string') return first;
    const j = JSON.parse(first) as Partial<PeerInfo> & { error?: string; ready?: boolean };
    if (j.error || !j.ready) {
      child.kill();
      return { reason: j.error ?? `unexpected first line from the peer: ${first}` };
    }
    return new TorchPeer(child, lines, rl, j as PeerInfo);
  }

  /** Runs `impl` steps for about `seconds`; the window's counts. */
  async run(impl: 'plain' | 'foreach', seconds: number): Promise<Window> {
    this.child.stdin.write(`${impl} ${seconds}\n`);
    const r = await this.lines.next();
    if (r.done) throw new Error('the PyTorch peer ended');
    return JSON.parse(r.value) as Window;
  }

  stop(): void {
    this.child.stdin.write('quit\n');
    this.rl.close();
  }
}
