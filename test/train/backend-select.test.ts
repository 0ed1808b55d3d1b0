/** Backend selection rules with fake backends (no GPU needed), and the WebGPU probe's checks. */
import { activate } from '../../src/train/backend-util';
import { BACKEND_ORDER, BackendError, createBackendSelector, describeChoice, loadTf, type BackendLoaders, type LoadedBackend } from '../../src/train/backend';
import { adapterName, isSoftwareAdapter, loadWebGpu } from '../../src/train/webgpu-backend';

/** Loaders that fail with `reasons[name]` (a string: an Error; an object: thrown as is), others activate tfjs's cpu backend. */
function fakes(reasons: Partial<Record<string, unknown>>, ok: Partial<Record<string, LoadedBackend>> = {}): BackendLoaders & { calls: string[] } {
  const calls: string[] = [];
  const make = (name: string) => async (): Promise<LoadedBackend> => {
    calls.push(name);
    const r = reasons[name];
    if (typeof r === 'string') throw new Error(r);
    if (r !== undefined) throw r;
    await activate(loadTf(), 'cpu');
    return ok[name] ?? { tfBackend: 'cpu' };
  };
  return Object.assign(Object.fromEntries(BACKEND_ORDER.map((n) => [n, make(n)])) as BackendLoaders, { calls });
}

const NO_CUDA = 'package @tensorflow/tfjs-node-gpu is not installed';
const NO_VULKAN = 'Dawn (the webgpu package) found no GPU adapter: no GPU, or no Vulkan loader / driver ICD';

describe('backend selection (fake backends)', () => {
  test('a GPU backend that loads is chosen first, with its device; the better one skipped is named with its reason', async () => {
    const loaders = fakes({ 'tfjs-node-gpu': NO_CUDA }, { webgpu: { tfBackend: 'cpu', device: 'nvidia hopper (NVIDIA H200)', syncReads: false } });
    const choice = await createBackendSelector(loaders).select();
    expect(choice.name).toBe('webgpu');
    expect(choice.device).toBe('nvidia hopper (NVIDIA H200)');
    expect(choice.syncReads).toBe(false);
    expect(loaders.calls).toEqual(['tfjs-node-gpu', 'webgpu']);
    expect(describeChoice(choice)).toBe(`backend: webgpu (nvidia hopper (NVIDIA H200)); tfjs-node-gpu unavailable (${NO_CUDA})`);
  });

  test('without a GPU it falls back in order, keeping every reason; plain backends read synchronously', async () => {
    const loaders = fakes({ 'tfjs-node-gpu': NO_CUDA, webgpu: NO_VULKAN, 'tfjs-node': 'package @tensorflow/tfjs-node is not installed' });
    const choice = await createBackendSelector(loaders).select();
    expect(choice.name).toBe('wasm');
    expect(choice.syncReads).toBe(true);
    expect(choice.device).toBeUndefined();
    expect(choice.probes.map((p) => [p.name, p.ok])).toEqual([
      ['tfjs-node-gpu', false],
      ['webgpu', false],
      ['tfjs-node', false],
      ['wasm', true],
    ]);
    expect(choice.probes[1].reason).toBe(NO_VULKAN);
    expect(describeChoice(choice)).toMatch(/^backend: wasm; tfjs-node-gpu unavailable \(.+\); webgpu unavailable \(Dawn .+\); tfjs-node unavailable/);
  });

  test('every kind of failure is caught: a thrown string, a long multi-line error (first line, shortened)', async () => {
    const long = new Error(`${'x'.repeat(300)}\nsecond line`);
    const choice = await createBackendSelector(fakes({ 'tfjs-node-gpu': { not: 'an error' }, webgpu: long, 'tfjs-node': 'plain' })).select();
    expect(choice.name).toBe('wasm');
    expect(choice.probes[0].reason).toBe('[object Object]');
    expect(choice.probes[1].reason).toHaveLength(240);
    expect(choice.probes[1].reason).toMatch(/^x+\.\.\.$/);
  });

  test('--backend NAME: that backend or a one-line error with its reason; unknown names and nothing loading', async () => {
    const sel = createBackendSelector(fakes({ webgpu: NO_VULKAN }));
    await expect(sel.select('webgpu')).rejects.toThrow(new BackendError(`--backend webgpu is not available: ${NO_VULKAN}`));
    expect((await sel.select('cpu')).name).toBe('cpu');
    await expect(sel.select('tpu')).rejects.toThrow(/--backend: unknown backend "tpu" \(known: tfjs-node-gpu, webgpu, tfjs-node, wasm, cpu\)/);
    const none = createBackendSelector(fakes(Object.fromEntries(BACKEND_ORDER.map((n) => [n, `${n} broke`]))));
    await expect(none.select()).rejects.toThrow(/^no TensorFlow.js backend could load: tfjs-node-gpu: tfjs-node-gpu broke; webgpu: webgpu broke; .*cpu: cpu broke$/);
  });

  test('probe lists every backend; concurrent selections never overlap', async () => {
    const loaders = fakes({ webgpu: NO_VULKAN });
    const sel = createBackendSelector(loaders);
    expect((await sel.probe()).map((p) => (p.ok ? p.name : `${p.name}: ${p.reason}`))).toEqual(['tfjs-node-gpu', `webgpu: ${NO_VULKAN}`, 'tfjs-node', 'wasm', 'cpu']);
    let running = 0;
    let overlapped = false;
    const slow: BackendLoaders = { ...loaders };
    slow['tfjs-node-gpu'] = async () => {
      overlapped ||= running > 0;
      running++;
      await new Promise((r) => setImmediate(r));
      running--;
      throw new Error('slow failure');
    };
    const serial = createBackendSelector(slow);
    const picks = await Promise.all([serial.select(), serial.select(), serial.select()]);
    expect(picks.map((c) => c.name)).toEqual(['tfjs-node', 'tfjs-node', 'tfjs-node']);
    expect(overlapped).toBe(false);
  });
});

describe('the WebGPU probe', () => {
  test('refuses software adapters (fallback flag or a CPU implementation by name); names adapters', () => {
    expect(isSoftwareAdapter({ info: { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' } })).toBe(false);
    expect(isSoftwareAdapter({ isFallbackAdapter: true })).toBe(true);
    expect(isSoftwareAdapter({ info: { isFallbackAdapter: true } })).toBe(true);
    expect(isSoftwareAdapter({ info: { vendor: 'google', description: 'SwiftShader Device (Subzero)' } })).toBe(true);
    expect(isSoftwareAdapter({ info: { description: 'llvmpipe (LLVM 15.0.6, 256 bits)' } })).toBe(true);
    expect(adapterName({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' })).toBe('nvidia hopper (NVIDIA H200)');
    expect(adapterName({ device: 'gfx1100' })).toBe('(gfx1100)');
    expect(adapterName({})).toBe('unnamed adapter');
  });

  test('without the webgpu package the reason says so (what `--backend list` shows here)', async () => {
    let installed = true;
    try {
      require.resolve('webgpu');
    } catch {
      installed = false;
    }
    if (installed) return; // a machine with the package probes for real
    await expect(loadWebGpu(loadTf())).rejects.toThrow('package webgpu is not installed');
  });
});
