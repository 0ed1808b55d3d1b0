/**
 * The fused module's build: the checked-in .wasm files are what assembly/fused-mlp.ts compiles to
 * (npm run build:wasm), the table slots of layout.ts are the module's, and the relaxed-SIMD
 * choice follows WebAssembly.validate.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SLOT } from '../../src/train/fused/layout';
import { fusedFlavour, instantiateFused, relaxedSimdAvailable, useFusedFile, useFusedFlavour, wasmFile } from '../../src/train/fused/wasm';

const ROOT = join(__dirname, '..', '..');
const SOURCE = join(ROOT, 'assembly', 'fused-mlp.ts');

describe('fused MLP build', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-asc-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['simd', 'simd'],
    ['relaxed', 'simd,relaxed-simd'],
  ] as const)('the checked-in %s build is the compiled source (run npm run build:wasm after editing assembly/)', (flavour, features) => {
    const out = join(dir, `${flavour}.wasm`);
    const asc = join(ROOT, 'node_modules', 'assemblyscript', 'bin', 'asc.js');
    const r = spawnSync(process.execPath, [asc, SOURCE, '--enable', features, '-O3', '--runtime', 'stub', '--noAssert', '-o', out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(Buffer.compare(readFileSync(out), readFileSync(wasmFile(flavour)))).toBe(0);
  });

  test("layout.ts's table slots are the module's constants", () => {
    const text = readFileSync(SOURCE, 'utf8');
    const declared = new Map([...text.matchAll(/^const ([A-Z0-9_]+): i32 = (\d+);/gm)].map((m) => [m[1], Number(m[2])]));
    const names: Record<string, string> = { L: 'L_' };
    for (const [name, slot] of Object.entries(SLOT)) expect([name, declared.get(names[name] ?? name)]).toEqual([name, slot]);
  });

  test('the build in use follows WebAssembly.validate of the relaxed-SIMD module; ARENA_FUSED=simd forces plain SIMD', () => {
    const relaxed = relaxedSimdAvailable();
    expect(relaxed).toBe(WebAssembly.validate(readFileSync(wasmFile('relaxed'))));
    expect(fusedFlavour()).toBe(relaxed ? 'relaxed' : 'simd');
    const before = process.env.ARENA_FUSED;
    process.env.ARENA_FUSED = 'simd';
    try {
      expect(fusedFlavour()).toBe('simd');
    } finally {
      if (before === undefined) delete process.env.ARENA_FUSED;
      else process.env.ARENA_FUSED = before;
    }
    expect(instantiateFused('simd').relaxed()).toBe(0);
    if (relaxed) expect(instantiateFused('relaxed').relaxed()).toBe(1);
    else expect(() => useFusedFlavour('relaxed')).toThrow(/relaxed SIMD/);
  });

  test('useFusedFile: new instances come from that file (benches compare builds); undefined restores the checked-in builds', () => {
    useFusedFile(wasmFile('simd'));
    try {
      // without the override the relaxed flavour is the relaxed build (relaxed() = 1), or fails to compile where it does not validate
      expect(instantiateFused('relaxed').relaxed()).toBe(0);
    } finally {
      useFusedFile(undefined);
    }
    if (relaxedSimdAvailable()) expect(instantiateFused('relaxed').relaxed()).toBe(1);
    else expect(() => instantiateFused('relaxed')).toThrow();
    expect(() => useFusedFile(join(dir, 'missing.wasm'))).toThrow(/missing\.wasm/);
  });
});
