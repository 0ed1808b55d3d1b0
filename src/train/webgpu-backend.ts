/**
 * The `webgpu` training backend: `@tensorflow/tfjs-backend-webgpu` on Node through the `webgpu`
 * npm package (Google's Dawn as a Node addon). Both come from npm alone: `webgpu` ships its
 * prebuilt `dist/linux-x64/dawn.node` (and other platforms') inside the package, and its
 * postinstall only clears a quarantine attribute on macOS, so installing downloads nothing
 * beyond the two tarballs and running downloads nothing at all (docs/gpu.md). On Linux Dawn
 * drives the GPU through Vulkan: the system needs the Vulkan loader (`libvulkan1`) and the
 * GPU driver's Vulkan ICD (NVIDIA: part of the proprietary driver).
 *
 * Refused, with the reason kept: a package that is missing or fails to load, no adapter, and a
 * software adapter (SwiftShader, llvmpipe/lavapipe): a CPU pretending to be a GPU is slower
 * than wasm. WebGPU cannot read a tensor synchronously in Node (tfjs's readSync needs
 * OffscreenCanvas), so the choice says `syncReads: false` and the learner reads asynchronously.
 */
import type * as TF from '@tensorflow/tfjs';
import { activate, describeLoadError } from './backend-util';

/** The part of a WebGPU adapter's info that names it. */
export interface AdapterInfo {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

/** The part of a WebGPU adapter the probe reads. */
export interface GpuAdapterLike {
  info?: AdapterInfo;
  isFallbackAdapter?: boolean;
}

/** The `webgpu` package's exports (Dawn). */
interface DawnModule {
  create(flags: string[]): { requestAdapter(o?: { powerPreference?: string }): Promise<GpuAdapterLike | null> };
  globals: Record<string, unknown>;
}

/** A readable name of an adapter: "nvidia hopper (NVIDIA H200)" or whatever parts it states. */
export function adapterName(info: AdapterInfo): string {
  const parts = [info.vendor, info.architecture].filter((x) => x).join(' ');
  const what = info.description || info.device;
  return [parts, what ? `(${what})` : ''].filter((x) => x).join(' ') || 'unnamed adapter';
}

/** Whether an adapter is a CPU implementation of WebGPU (refused: slower than wasm). */
export function isSoftwareAdapter(adapter: GpuAdapterLike): boolean {
  const info = adapter.info ?? {};
  if (adapter.isFallbackAdapter || info.isFallbackAdapter) return true;
  return /swiftshader|llvmpipe|lavapipe|softpipe|software/i.test(`${info.vendor ?? ''} ${info.architecture ?? ''} ${info.device ?? ''} ${info.description ?? ''}`);
}

/**
 * Loads an ES module by name (the `webgpu` package is ESM): require() where Node loads ES
 * modules that way (20.19+, 22.12+), else a dynamic import.
 */
async function loadModule(name: string): Promise<unknown> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name);
  } catch (e) {
    if ((e as { code?: string } | null)?.code !== 'ERR_REQUIRE_ESM') throw e;
    return import(name);
  }
}

/**
 * Activates tfjs's webgpu backend on a hardware adapter; resolves its tfjs id and the adapter's
 * name, or throws with the reason (see the module note).
 */
export async function loadWebGpu(tf: typeof TF): Promise<{ tfBackend: string; device: string; syncReads: boolean }> {
  let dawn: DawnModule;
  try {
    dawn = (await loadModule('webgpu')) as DawnModule;
  } catch (e) {
    throw new Error(describeLoadError('webgpu', e));
  }
  const gpu = dawn.create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('Dawn (the webgpu package) found no GPU adapter: no GPU, or no Vulkan loader / driver ICD (libvulkan1 and the GPU driver)');
  const device = adapterName(adapter.info ?? {});
  if (isSoftwareAdapter(adapter)) throw new Error(`the only WebGPU adapter is a software one (${device}), slower than wasm`);
  // tfjs-backend-webgpu registers itself at load time only when navigator.gpu exists, and uses
  // the WebGPU constants (GPUBufferUsage, ...) as globals, as in a browser.
  Object.assign(globalThis, dawn.globals);
  const g = globalThis as { navigator?: object };
  if (!g.navigator) Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  Object.defineProperty(g.navigator!, 'gpu', { value: gpu, configurable: true });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@tensorflow/tfjs-backend-webgpu');
  } catch (e) {
    throw new Error(describeLoadError('@tensorflow/tfjs-backend-webgpu', e));
  }
  await activate(tf, 'webgpu');
  return { tfBackend: 'webgpu', device, syncReads: false };
}
