/**
 * Loading the fused MLP module (assembly/fused-mlp.ts, compiled by `npm run build:wasm` into
 * assembly/fused-mlp.wasm and assembly/fused-mlp-relaxed.wasm, both checked in): the relaxed-SIMD
 * build (f32x4.relaxed_madd: an FMA where the CPU has one) where this runtime validates it,
 * else the plain SIMD build. Node 20 validates relaxed SIMD only with
 * `--experimental-wasm-relaxed-simd` (Node 22 by default); `ARENA_FUSED=simd` forces the plain
 * build (benches compare the two). Compiled once per process (per thread).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The exports of an instance (see assembly/fused-mlp.ts). */
export interface FusedExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  relaxed(): number;
  forward(rows: number): void;
  act(rows: number, width: number): void;
  lossGrad(start: number, count: number, clip: number, valueCoef: number, entropyCoef: number): void;
  adam(lr: number, b1: number, b2: number, eps: number, c1: number, c2: number, maxNorm: number): number;
  step(start: number, count: number, clip: number, valueCoef: number, entropyCoef: number, lr: number, b1: number, b2: number, eps: number, c1: number, c2: number, maxNorm: number): void;
}

/** Which build: relaxed SIMD (FMA) or plain SIMD. */
export type FusedFlavour = 'relaxed' | 'simd';

/** The folder holding the compiled modules: `assembly/` of the package (from src/ or dist/src/). */
export function wasmDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'assembly', 'fused-mlp.wasm'))) return join(dir, 'assembly');
    if (dirname(dir) === dir) throw new Error(`fused MLP: assembly/fused-mlp.wasm not found above ${__dirname} (run npm run build:wasm)`);
  }
}

/** The file of a build. */
export function wasmFile(flavour: FusedFlavour): string {
  return join(wasmDir(), flavour === 'relaxed' ? 'fused-mlp-relaxed.wasm' : 'fused-mlp.wasm');
}

const compiled = new Map<FusedFlavour, WebAssembly.Module>();

/** Whether this runtime accepts the relaxed-SIMD build (WebAssembly.validate). */
export function relaxedSimdAvailable(): boolean {
  return WebAssembly.validate(readFileSync(wasmFile('relaxed')));
}

/** The build this process uses: relaxed where it validates (and ARENA_FUSED is not "simd"), else simd. */
export function fusedFlavour(): FusedFlavour {
  if (process.env.ARENA_FUSED === 'simd') return 'simd';
  return relaxedSimdAvailable() ? 'relaxed' : 'simd';
}

let chosen: FusedFlavour | undefined;

/** Makes networks created from now on use `flavour` (benches compare the builds); undefined: the default again. */
export function useFusedFlavour(flavour: FusedFlavour | undefined): void {
  if (flavour === 'relaxed' && !relaxedSimdAvailable()) throw new Error('fused MLP: this runtime does not validate relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd)');
  chosen = flavour;
}

let override: WebAssembly.Module | undefined;

/**
 * Makes networks created from now on instantiate `file` (another build of assembly/fused-mlp.ts,
 * with the same exports and table: benches compare an older build with this one); undefined:
 * the checked-in builds again.
 */
export function useFusedFile(file: string | undefined): void {
  override = file === undefined ? undefined : new WebAssembly.Module(readFileSync(file));
}

/** A fresh instance of the fused module (its own memory). */
export function instantiateFused(flavour: FusedFlavour = (chosen ??= fusedFlavour())): FusedExports {
  if (override) return new WebAssembly.Instance(override, {}).exports as unknown as FusedExports;
  let mod = compiled.get(flavour);
  if (!mod) {
    mod = new WebAssembly.Module(readFileSync(wasmFile(flavour)));
    compiled.set(flavour, mod);
  }
  const instance = new WebAssembly.Instance(mod, {}); // it imports nothing (--runtime stub --noAssert)
  return instance.exports as unknown as FusedExports;
}
