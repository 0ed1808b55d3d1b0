/**
 * TensorFlow.js backend choice for training.
 *
 * Order: `tfjs-node-gpu` (CUDA) → `tfjs-node` → `wasm` → `cpu`. Native packages are probed
 * inside a try/catch that catches every error (a missing package, a failed native load, a
 * missing CUDA library), and each failure is kept with its reason so `--backend NAME` can say
 * exactly why NAME is not available. tfjs is loaded lazily: playing with a `neural` agent
 * never needs it.
 */
import { dirname, join } from 'node:path';
import type * as TF from '@tensorflow/tfjs';

/** The tfjs namespace (type only; loaded at run time by {@link selectBackend}). */
export type Tf = typeof TF;

/** Backend names accepted by `--backend`, in preference order. */
export const BACKEND_ORDER = ['tfjs-node-gpu', 'tfjs-node', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_ORDER)[number];

/** Why one backend could or could not be used. */
export interface BackendProbe {
  name: BackendName;
  ok: boolean;
  /** The failure (missing package, native load error, ...) when not ok. */
  reason?: string;
}

/** The chosen backend: its name, the tfjs namespace bound to it, and why the better ones were skipped. */
export interface BackendChoice {
  name: BackendName;
  tf: Tf;
  /** tfjs's own backend id (`tensorflow`, `wasm`, `cpu`). */
  tfBackend: string;
  /** Probes of the backends tried before (and including) the chosen one. */
  probes: BackendProbe[];
}

/** `--backend` named a backend that cannot load here; the message says why. */
export class BackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendError';
  }
}

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const first = text.split('\n').find((l) => l.trim()) ?? text;
  return first.length > 240 ? `${first.slice(0, 237)}...` : first;
}

function describeLoadError(pkg: string, e: unknown): string {
  const code = (e as { code?: string } | null)?.code;
  if (code === 'MODULE_NOT_FOUND' && errorText(e).includes(`'${pkg}'`)) return `package ${pkg} is not installed`;
  return `${pkg} failed to load: ${errorText(e)}`;
}

let tfModule: Tf | undefined;

/** The shared tfjs namespace (loaded once). */
export function loadTf(): Tf {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tfModule ??= require('@tensorflow/tfjs') as Tf;
  return tfModule;
}

/** Silences tfjs's "install the node backend" banner printed on first use of the cpu backend. */
function quietCpuBanner(tf: Tf): void {
  const b = tf.findBackend('cpu') as unknown as { firstUse?: boolean } | null;
  if (b && 'firstUse' in b) b.firstUse = false;
}

async function activate(tf: Tf, id: string): Promise<void> {
  const ok = await tf.setBackend(id);
  if (!ok) throw new Error(`tf.setBackend("${id}") returned false`);
  await tf.ready();
  if (tf.getBackend() !== id) throw new Error(`backend "${id}" did not become active (active: ${tf.getBackend()})`);
}

/** Tries one backend; resolves to the tfjs backend id on success, throws with a reason otherwise. */
async function tryBackend(name: BackendName): Promise<string> {
  switch (name) {
    case 'tfjs-node-gpu':
    case 'tfjs-node': {
      const pkg = `@tensorflow/${name}`;
      let mod: unknown;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        mod = require(pkg);
      } catch (e) {
        throw new Error(describeLoadError(pkg, e));
      }
      if (!mod) throw new Error(`${pkg} loaded but exported nothing`);
      const tf = loadTf();
      if (!tf.findBackend('tensorflow')) {
        throw new Error(`${pkg} loaded but registered no "tensorflow" backend with this @tensorflow/tfjs (version mismatch?)`);
      }
      await activate(tf, 'tensorflow');
      return 'tensorflow';
    }
    case 'wasm': {
      const tf = loadTf();
      let wasm: { setWasmPaths(p: string): void };
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        wasm = require('@tensorflow/tfjs-backend-wasm') as typeof wasm;
      } catch (e) {
        throw new Error(describeLoadError('@tensorflow/tfjs-backend-wasm', e));
      }
      // The .wasm binaries ship in the package's dist/ folder; no network is needed.
      const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
      wasm.setWasmPaths(join(dist, '/'));
      await activate(tf, 'wasm');
      return 'wasm';
    }
    case 'cpu': {
      const tf = loadTf();
      quietCpuBanner(tf);
      await activate(tf, 'cpu');
      return 'cpu';
    }
  }
}

/** Probes every backend without keeping any (for `arena train --backend list` and the bench). */
export async function probeBackends(): Promise<BackendProbe[]> {
  const out: BackendProbe[] = [];
  for (const name of BACKEND_ORDER) {
    try {
      await tryBackend(name);
      out.push({ name, ok: true });
    } catch (e) {
      out.push({ name, ok: false, reason: errorText(e) });
    }
  }
  return out;
}

let selecting: Promise<unknown> = Promise.resolve();

/**
 * Activates `forced` (failing with BackendError and the reason when it cannot load), or the
 * best available backend in {@link BACKEND_ORDER}. The tfjs backend is process-global, so calls
 * are serialized: concurrent callers (several leagues starting at once) never race the probes.
 */
export function selectBackend(forced?: string): Promise<BackendChoice> {
  const next = selecting.then(() => selectBackendNow(forced));
  selecting = next.catch(() => undefined);
  return next;
}

async function selectBackendNow(forced?: string): Promise<BackendChoice> {
  if (forced !== undefined && !(BACKEND_ORDER as readonly string[]).includes(forced)) {
    throw new BackendError(`--backend: unknown backend "${forced}" (known: ${BACKEND_ORDER.join(', ')})`);
  }
  const names = forced ? [forced as BackendName] : BACKEND_ORDER;
  const probes: BackendProbe[] = [];
  for (const name of names) {
    try {
      const tfBackend = await tryBackend(name);
      probes.push({ name, ok: true });
      return { name, tf: loadTf(), tfBackend, probes };
    } catch (e) {
      probes.push({ name, ok: false, reason: errorText(e) });
    }
  }
  if (forced) throw new BackendError(`--backend ${forced} is not available: ${probes[0].reason}`);
  throw new BackendError(`no TensorFlow.js backend could load: ${probes.map((p) => `${p.name}: ${p.reason}`).join('; ')}`);
}

/** One line for the start of a training run: the chosen backend and why better ones were skipped. */
export function describeChoice(choice: BackendChoice): string {
  const skipped = choice.probes.filter((p) => !p.ok).map((p) => `${p.name} unavailable (${p.reason})`);
  return `backend: ${choice.name}${skipped.length ? `; ${skipped.join('; ')}` : ''}`;
}
