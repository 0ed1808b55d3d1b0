/**
 * TensorFlow.js backend choice for training.
 *
 * Order: `tfjs-node-gpu` (CUDA) → `webgpu` (Dawn through the `webgpu` npm package: Vulkan on
 * Linux; see webgpu-backend.ts) → `tfjs-node` → `wasm` → `cpu`. Every probe runs inside a
 * try/catch that catches every error (a missing package, a failed native load, a missing CUDA
 * or Vulkan library, a software-only adapter), and each failure is kept with its reason so
 * `--backend NAME` can say exactly why NAME is not available and the chosen backend's line
 * says why the better ones were skipped. tfjs is loaded lazily: playing with a `neural` agent
 * never needs it. The probes are plain functions ({@link BackendLoaders}), so the selection
 * rules are tested with fake backends ({@link createBackendSelector}).
 */
import { dirname, join } from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import { activate, describeLoadError, errorText } from './backend-util';
import { loadWebGpu } from './webgpu-backend';

/** The tfjs namespace (type only; loaded at run time by {@link selectBackend}). */
export type Tf = typeof TF;

/** Backend names accepted by `--backend`, in preference order. */
export const BACKEND_ORDER = ['tfjs-node-gpu', 'webgpu', 'tfjs-node', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_ORDER)[number];

/** Why one backend could or could not be used. */
export interface BackendProbe {
  name: BackendName;
  ok: boolean;
  /** The failure (missing package, native load error, ...) when not ok. */
  reason?: string;
}

/** What a backend's loader reports once its tfjs backend is active. */
export interface LoadedBackend {
  /** tfjs's own backend id (`tensorflow`, `webgpu`, `wasm`, `cpu`). */
  tfBackend: string;
  /** The device, when the loader can name it (a GPU adapter's description). */
  device?: string;
  /** Whether tensors can be read synchronously (`dataSync`); false on WebGPU. Default true. */
  syncReads?: boolean;
}

/** The chosen backend: its name, the tfjs namespace bound to it, and why the better ones were skipped. */
export interface BackendChoice {
  name: BackendName;
  tf: Tf;
  /** tfjs's own backend id (`tensorflow`, `webgpu`, `wasm`, `cpu`). */
  tfBackend: string;
  /** The device when known (GPU adapter). */
  device?: string;
  /** Whether tensors can be read synchronously; when false the learner reads asynchronously (learner.ts). */
  syncReads: boolean;
  /** Probes of the backends tried before (and including) the chosen one. */
  probes: BackendProbe[];
}

/**
 * One loader per backend: activates it (resolving what it reports) or throws with the reason
 * it cannot be used here.
 */
export type BackendLoaders = Record<BackendName, () => Promise<LoadedBackend>>;

/** `--backend` named a backend that cannot load here; the message says why. */
export class BackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendError';
  }
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

async function loadNative(name: 'tfjs-node-gpu' | 'tfjs-node'): Promise<LoadedBackend> {
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
  return { tfBackend: 'tensorflow' };
}

async function loadWasm(): Promise<LoadedBackend> {
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
  return { tfBackend: 'wasm' };
}

async function loadCpu(): Promise<LoadedBackend> {
  const tf = loadTf();
  quietCpuBanner(tf);
  await activate(tf, 'cpu');
  return { tfBackend: 'cpu' };
}

/** The real loaders (the npm packages installed here). */
export const DEFAULT_LOADERS: BackendLoaders = {
  'tfjs-node-gpu': () => loadNative('tfjs-node-gpu'),
  webgpu: () => loadWebGpu(loadTf()),
  'tfjs-node': () => loadNative('tfjs-node'),
  wasm: loadWasm,
  cpu: loadCpu,
};

/** Backend selection over a set of loaders (the real ones: {@link selectBackend}, {@link probeBackends}). */
export interface BackendSelector {
  /**
   * Activates `forced` (failing with BackendError and the reason when it cannot load), or the
   * best available backend in {@link BACKEND_ORDER}. Calls are serialized (the tfjs backend is
   * process-global): concurrent callers never race the probes.
   */
  select(forced?: string): Promise<BackendChoice>;
  /** Probes every backend without keeping any (`arena train --backend list`, the benches). */
  probe(): Promise<BackendProbe[]>;
}

/** A selector over `loaders` (tests pass fakes; see the module note). */
export function createBackendSelector(loaders: BackendLoaders): BackendSelector {
  let selecting: Promise<unknown> = Promise.resolve();
  const now = async (forced?: string): Promise<BackendChoice> => {
    if (forced !== undefined && !(BACKEND_ORDER as readonly string[]).includes(forced)) {
      throw new BackendError(`--backend: unknown backend "${forced}" (known: ${BACKEND_ORDER.join(', ')})`);
    }
    const names = forced ? [forced as BackendName] : BACKEND_ORDER;
    const probes: BackendProbe[] = [];
    for (const name of names) {
      try {
        const loaded = await loaders[name]();
        probes.push({ name, ok: true });
        return { name, tf: loadTf(), tfBackend: loaded.tfBackend, ...(loaded.device ? { device: loaded.device } : {}), syncReads: loaded.syncReads ?? true, probes };
      } catch (e) {
        probes.push({ name, ok: false, reason: errorText(e) });
      }
    }
    if (forced) throw new BackendError(`--backend ${forced} is not available: ${probes[0].reason}`);
    throw new BackendError(`no TensorFlow.js backend could load: ${probes.map((p) => `${p.name}: ${p.reason}`).join('; ')}`);
  };
  return {
    select(forced) {
      const next = selecting.then(() => now(forced));
      selecting = next.catch(() => undefined);
      return next;
    },
    async probe() {
      const out: BackendProbe[] = [];
      for (const name of BACKEND_ORDER) {
        try {
          await loaders[name]();
          out.push({ name, ok: true });
        } catch (e) {
          out.push({ name, ok: false, reason: errorText(e) });
        }
      }
      return out;
    },
  };
}

const real = createBackendSelector(DEFAULT_LOADERS);

/** Probes every backend without keeping any (for `arena train --backend list` and the bench). */
export function probeBackends(): Promise<BackendProbe[]> {
  return real.probe();
}

/**
 * Activates `forced` (failing with BackendError and the reason when it cannot load), or the
 * best available backend in {@link BACKEND_ORDER}. The tfjs backend is process-global, so calls
 * are serialized: concurrent callers (several leagues starting at once) never race the probes.
 */
export function selectBackend(forced?: string): Promise<BackendChoice> {
  return real.select(forced);
}

/** One line for the start of a training run: the chosen backend and why better ones were skipped. */
export function describeChoice(choice: BackendChoice): string {
  const skipped = choice.probes.filter((p) => !p.ok).map((p) => `${p.name} unavailable (${p.reason})`);
  return `backend: ${choice.name}${choice.device ? ` (${choice.device})` : ''}${skipped.length ? `; ${skipped.join('; ')}` : ''}`;
}
