/**
 * The fused MLP of src/train (issue 25), in AssemblyScript compiled to WebAssembly SIMD: the
 * forward and backward passes of a policy/value network with bias, ReLU (or tanh) and the
 * masks fused into register-blocked matrix loops, the PPO loss and its gradient, global-norm
 * clipping and Adam, all in one module: one call per minibatch step, no per-op dispatch, nothing
 * read back but eight numbers of statistics.
 *
 * The host (src/train/fused/fused-layout.ts) lays the memory out and writes a table of sizes and
 * byte offsets at `heapBase()` (the slots below); every function here reads it. Matrices are
 * row-major float32 with every width padded to a multiple of 4 (padding holds zeros and stays
 * zero: its gradients are 0, so Adam never moves it).
 *
 * One kernel does all the matrix work: `spmm`, a sparse-row × dense-matrix product
 * out[p, :] = init + Σ_t val[p, t] · M[idx[p, t], :] over the nonzeros of each row p (lists
 * built by `rowLists` / `colLists`), eight float32x4 accumulators per 32 output columns held in
 * registers across the whole list. The forward pass lists each input row's nonzeros (ReLU zeros
 * and one-hot encodings cost nothing), the weight gradient lists each input column's nonzeros
 * (W' = Hᵀ·dZ), the input gradient lists each dZ row's nonzeros against the transposed weights
 * (dH = dZ·Wᵀ, the ReLU mask fused into the store). A row's outputs depend on that row alone, in
 * a fixed order (bias, then inputs ascending), so a batch of any size gives each row the same bits.
 *
 * With relaxed SIMD (compiled with --enable relaxed-simd) the multiply-adds are
 * f32x4.relaxed_madd (an FMA where the CPU has one); otherwise f32x4.mul then f32x4.add.
 */

// ---- the table written by the host: slot numbers ----
const L_: i32 = 0; // layers (weight matrices)
const ACTKIND: i32 = 1; // 0 relu, 1 tanh
const UNITS: i32 = 3; // policy outputs (the value follows them)
const PARAMS: i32 = 4;
const GRADS: i32 = 5;
const MOM1: i32 = 6;
const MOM2: i32 = 7;
const TOTAL: i32 = 8; // floats in each of PARAMS, GRADS, MOM1, MOM2
const DZA: i32 = 9;
const DZB: i32 = 10;
const WT: i32 = 11;
const LIST: i32 = 12; // list entries: (i32 byte offset, f32 value) pairs, LCAP per list
const LCNT: i32 = 14; // entries per list (i32)
const LCAP: i32 = 15;
const MASKS: i32 = 16;
const ACTIONS: i32 = 17;
const OLDLOGP: i32 = 18;
const ADV: i32 = 19;
const RET: i32 = 20;
const STATS: i32 = 21; // f64 × 10
const SX: i32 = 22;
const SMASK: i32 = 23;
const SACT: i32 = 24;
const SLOGP: i32 = 25;
const SADV: i32 = 26;
const SRET: i32 = 27;
const ORDER: i32 = 28;
const INSIZE: i32 = 29;
const OUT: i32 = 30;
const NEEDED: i32 = 31;
const PROBS: i32 = 32; // f64 scratch, UNITS wide
const WIDTH: i32 = 40; // + k: padded width of level k (k = 0 .. L)
const RAW: i32 = 60; // + k: unpadded width of level k
const ACT: i32 = 80; // + k: activations of level k (ACT[0] = input rows)
const OFFW: i32 = 100; // + l: byte offset of W_l in the PARAMS (GRADS, MOM1, MOM2) region
const OFFB: i32 = 120; // + l: byte offset of b_l

// stats slots (f64)
const S_LOSS: i32 = 0;
const S_PG: i32 = 1;
const S_VALUE: i32 = 2;
const S_ENTROPY: i32 = 3;
const S_KL: i32 = 4;
const S_CLIP: i32 = 5;
const S_NORM: i32 = 6;
const S_ERROR: i32 = 7; // 0 ok, 1 a row without a legal action, 2 an action its mask marks illegal
const S_ERROR_ROW: i32 = 8;

// epilogues of spmm's store
const E_NONE: i32 = 0;
const E_RELU: i32 = 1;
const E_TANH: i32 = 2;
const E_RELU_GRAD: i32 = 3; // × (h > 0)
const E_TANH_GRAD: i32 = 4; // × (1 − h²)

@inline function T(k: i32): usize {
  return <usize>load<i32>(__heap_base + (<usize>k << 2));
}

@inline function TI(k: i32): i32 {
  return load<i32>(__heap_base + (<usize>k << 2));
}

@inline function stat(k: i32, v: f64): void {
  store<f64>(T(STATS) + (<usize>k << 3), v);
}

/** Where the host's table starts (the host places everything after it). */
export function heapBase(): usize {
  return __heap_base;
}

/** Whether this build multiplies-adds with relaxed SIMD (1) or with mul then add (0). */
export function relaxed(): i32 {
  return ASC_FEATURE_RELAXED_SIMD ? 1 : 0;
}

@inline function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  else return f32x4.add(c, f32x4.mul(a, b));
}

function tanh4(a: v128): v128 {
  let r = f32x4.splat(<f32>Math.tanh(<f64>f32x4.extract_lane(a, 0)));
  r = f32x4.replace_lane(r, 1, <f32>Math.tanh(<f64>f32x4.extract_lane(a, 1)));
  r = f32x4.replace_lane(r, 2, <f32>Math.tanh(<f64>f32x4.extract_lane(a, 2)));
  return f32x4.replace_lane(r, 3, <f32>Math.tanh(<f64>f32x4.extract_lane(a, 3)));
}

/** The store epilogue of one float32x4 of outputs (`h`: the matching activations for the gradient masks). */
@inline function epi(a: v128, mode: i32, h: usize): v128 {
  if (mode == E_NONE) return a;
  if (mode == E_RELU) return f32x4.pmax(a, f32x4.splat(0)); // a < 0 ? 0 : a (keeps NaN)
  if (mode == E_RELU_GRAD) return v128.and(a, f32x4.gt(v128.load(h), f32x4.splat(0)));
  if (mode == E_TANH) return tanh4(a);
  const hv = v128.load(h);
  return f32x4.mul(a, f32x4.sub(f32x4.splat(1), f32x4.mul(hv, hv)));
}

// ---- the kernel: 48, 32, 16, 8 or 4 output columns per pass over a row's list ----
// A list entry is 8 bytes: the byte offset of a row of M (i32), then the value (f32). The
// passes are dispatch-bound in V8 (a load, a mul and an add per float32x4, and about a dozen
// instructions of loop per entry), so the widest pass that fits the 15 usable xmm registers
// (12 accumulators) takes most columns. The five widths are written out on purpose: each keeps
// its accumulators in registers, which a loop over an array of v128 would not.

function tile48(ep: usize, end: usize, mc: usize, bp: usize, dst: usize, mode: i32, hp: usize): void {
  let a0 = f32x4.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  if (bp) {
    a0 = v128.load(bp, 0);
    a1 = v128.load(bp, 16);
    a2 = v128.load(bp, 32);
    a3 = v128.load(bp, 48);
    a4 = v128.load(bp, 64);
    a5 = v128.load(bp, 80);
    a6 = v128.load(bp, 96);
    a7 = v128.load(bp, 112);
    a8 = v128.load(bp, 128);
    a9 = v128.load(bp, 144);
    a10 = v128.load(bp, 160);
    a11 = v128.load(bp, 176);
  }
  while (ep < end) {
    const w = mc + <usize>load<i32>(ep);
    const v = v128.load32_splat(ep, 4);
    a0 = madd(v, v128.load(w, 0), a0);
    a1 = madd(v, v128.load(w, 16), a1);
    a2 = madd(v, v128.load(w, 32), a2);
    a3 = madd(v, v128.load(w, 48), a3);
    a4 = madd(v, v128.load(w, 64), a4);
    a5 = madd(v, v128.load(w, 80), a5);
    a6 = madd(v, v128.load(w, 96), a6);
    a7 = madd(v, v128.load(w, 112), a7);
    a8 = madd(v, v128.load(w, 128), a8);
    a9 = madd(v, v128.load(w, 144), a9);
    a10 = madd(v, v128.load(w, 160), a10);
    a11 = madd(v, v128.load(w, 176), a11);
    ep += 8;
  }
  v128.store(dst, epi(a0, mode, hp + 0), 0);
  v128.store(dst, epi(a1, mode, hp + 16), 16);
  v128.store(dst, epi(a2, mode, hp + 32), 32);
  v128.store(dst, epi(a3, mode, hp + 48), 48);
  v128.store(dst, epi(a4, mode, hp + 64), 64);
  v128.store(dst, epi(a5, mode, hp + 80), 80);
  v128.store(dst, epi(a6, mode, hp + 96), 96);
  v128.store(dst, epi(a7, mode, hp + 112), 112);
  v128.store(dst, epi(a8, mode, hp + 128), 128);
  v128.store(dst, epi(a9, mode, hp + 144), 144);
  v128.store(dst, epi(a10, mode, hp + 160), 160);
  v128.store(dst, epi(a11, mode, hp + 176), 176);
}

function tile32(ep: usize, end: usize, mc: usize, bp: usize, dst: usize, mode: i32, hp: usize): void {
  let a0 = f32x4.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  if (bp) {
    a0 = v128.load(bp, 0);
    a1 = v128.load(bp, 16);
    a2 = v128.load(bp, 32);
    a3 = v128.load(bp, 48);
    a4 = v128.load(bp, 64);
    a5 = v128.load(bp, 80);
    a6 = v128.load(bp, 96);
    a7 = v128.load(bp, 112);
  }
  while (ep < end) {
    const w = mc + <usize>load<i32>(ep);
    const v = v128.load32_splat(ep, 4);
    a0 = madd(v, v128.load(w, 0), a0);
    a1 = madd(v, v128.load(w, 16), a1);
    a2 = madd(v, v128.load(w, 32), a2);
    a3 = madd(v, v128.load(w, 48), a3);
    a4 = madd(v, v128.load(w, 64), a4);
    a5 = madd(v, v128.load(w, 80), a5);
    a6 = madd(v, v128.load(w, 96), a6);
    a7 = madd(v, v128.load(w, 112), a7);
    ep += 8;
  }
  v128.store(dst, epi(a0, mode, hp + 0), 0);
  v128.store(dst, epi(a1, mode, hp + 16), 16);
  v128.store(dst, epi(a2, mode, hp + 32), 32);
  v128.store(dst, epi(a3, mode, hp + 48), 48);
  v128.store(dst, epi(a4, mode, hp + 64), 64);
  v128.store(dst, epi(a5, mode, hp + 80), 80);
  v128.store(dst, epi(a6, mode, hp + 96), 96);
  v128.store(dst, epi(a7, mode, hp + 112), 112);
}

function tile16(ep: usize, end: usize, mc: usize, bp: usize, dst: usize, mode: i32, hp: usize): void {
  let a0 = f32x4.splat(0), a1 = a0, a2 = a0, a3 = a0;
  if (bp) {
    a0 = v128.load(bp, 0);
    a1 = v128.load(bp, 16);
    a2 = v128.load(bp, 32);
    a3 = v128.load(bp, 48);
  }
  while (ep < end) {
    const w = mc + <usize>load<i32>(ep);
    const v = v128.load32_splat(ep, 4);
    a0 = madd(v, v128.load(w, 0), a0);
    a1 = madd(v, v128.load(w, 16), a1);
    a2 = madd(v, v128.load(w, 32), a2);
    a3 = madd(v, v128.load(w, 48), a3);
    ep += 8;
  }
  v128.store(dst, epi(a0, mode, hp + 0), 0);
  v128.store(dst, epi(a1, mode, hp + 16), 16);
  v128.store(dst, epi(a2, mode, hp + 32), 32);
  v128.store(dst, epi(a3, mode, hp + 48), 48);
}

function tile8(ep: usize, end: usize, mc: usize, bp: usize, dst: usize, mode: i32, hp: usize): void {
  let a0 = f32x4.splat(0), a1 = a0;
  if (bp) {
    a0 = v128.load(bp, 0);
    a1 = v128.load(bp, 16);
  }
  while (ep < end) {
    const w = mc + <usize>load<i32>(ep);
    const v = v128.load32_splat(ep, 4);
    a0 = madd(v, v128.load(w, 0), a0);
    a1 = madd(v, v128.load(w, 16), a1);
    ep += 8;
  }
  v128.store(dst, epi(a0, mode, hp + 0), 0);
  v128.store(dst, epi(a1, mode, hp + 16), 16);
}

function tile4(ep: usize, end: usize, mc: usize, bp: usize, dst: usize, mode: i32, hp: usize): void {
  let a0 = f32x4.splat(0);
  if (bp) {
    a0 = v128.load(bp, 0);
  }
  while (ep < end) {
    const w = mc + <usize>load<i32>(ep);
    const v = v128.load32_splat(ep, 4);
    a0 = madd(v, v128.load(w, 0), a0);
    ep += 8;
  }
  v128.store(dst, epi(a0, mode, hp + 0), 0);
}

/**
 * For each list p < P: out[p, 0 .. N) = (bias or 0) + Σ_t val[p, t] · M[idx[p, t] .. + N), the
 * epilogue `mode` applied at the store (`h`: activations with row stride `hs` bytes for the
 * gradient masks). `os` is out's row stride in bytes; N a multiple of 4. Row by row, each row's
 * columns in passes (panel-major orders and blocking the rows of M for L1 measured slower).
 */
function spmm(P: i32, N: i32, M: usize, out: usize, os: usize, bias: usize, mode: i32, h: usize, hs: usize): void {
  const cap = T(LCAP) << 3;
  const list = T(LIST);
  const cnt = T(LCNT);
  for (let p = 0; p < P; p++) {
    const ep = list + <usize>p * cap;
    const end = ep + (<usize>load<i32>(cnt + (<usize>p << 2)) << 3);
    const dst = out + <usize>p * os;
    const hp = h + <usize>p * hs;
    let c = 0;
    // 256 columns: 48 × 4 + 32 × 2 (six passes, not five and a narrow one)
    for (; c + 48 <= N && N - c != 64; c += 48) tile48(ep, end, M + (<usize>c << 2), bias ? bias + (<usize>c << 2) : 0, dst + (<usize>c << 2), mode, hp + (<usize>c << 2));
    for (; c + 32 <= N; c += 32) tile32(ep, end, M + (<usize>c << 2), bias ? bias + (<usize>c << 2) : 0, dst + (<usize>c << 2), mode, hp + (<usize>c << 2));
    if (c + 16 <= N) {
      tile16(ep, end, M + (<usize>c << 2), bias ? bias + (<usize>c << 2) : 0, dst + (<usize>c << 2), mode, hp + (<usize>c << 2));
      c += 16;
    }
    if (c + 8 <= N) {
      tile8(ep, end, M + (<usize>c << 2), bias ? bias + (<usize>c << 2) : 0, dst + (<usize>c << 2), mode, hp + (<usize>c << 2));
      c += 8;
    }
    if (c + 4 <= N) tile4(ep, end, M + (<usize>c << 2), bias ? bias + (<usize>c << 2) : 0, dst + (<usize>c << 2), mode, hp + (<usize>c << 2));
  }
}

// ---- dense inputs: 4 rows × 8 columns per register block ----

/** out[r .. r + 4, c .. c + 8) of {@link dense}: 8 accumulators, two loads of B and four broadcasts of A per k. */
function dense4x8(ar: usize, as: usize, K: i32, bc: usize, bs: usize, dst: usize, os: usize, bp: usize, mode: i32, hp: usize, hs: usize): void {
  let a0 = f32x4.splat(0), a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0, d1 = a0;
  if (bp) {
    a0 = v128.load(bp); a1 = v128.load(bp, 16);
    b0 = a0; b1 = a1; c0 = a0; c1 = a1; d0 = a0; d1 = a1;
  }
  let xp = ar;
  let wp = bc;
  for (let k = 0; k < K; k++) {
    const w0 = v128.load(wp);
    const w1 = v128.load(wp, 16);
    const x0 = v128.load32_splat(xp);
    const x1 = v128.load32_splat(xp + as);
    const x2 = v128.load32_splat(xp + 2 * as);
    const x3 = v128.load32_splat(xp + 3 * as);
    a0 = madd(x0, w0, a0);
    a1 = madd(x0, w1, a1);
    b0 = madd(x1, w0, b0);
    b1 = madd(x1, w1, b1);
    c0 = madd(x2, w0, c0);
    c1 = madd(x2, w1, c1);
    d0 = madd(x3, w0, d0);
    d1 = madd(x3, w1, d1);
    xp += 4;
    wp += bs;
  }
  v128.store(dst, epi(a0, mode, hp));
  v128.store(dst, epi(a1, mode, hp + 16), 16);
  v128.store(dst + os, epi(b0, mode, hp + hs));
  v128.store(dst + os, epi(b1, mode, hp + hs + 16), 16);
  v128.store(dst + 2 * os, epi(c0, mode, hp + 2 * hs));
  v128.store(dst + 2 * os, epi(c1, mode, hp + 2 * hs + 16), 16);
  v128.store(dst + 3 * os, epi(d0, mode, hp + 3 * hs));
  v128.store(dst + 3 * os, epi(d1, mode, hp + 3 * hs + 16), 16);
}

/** The last four columns of {@link dense} when N is not a multiple of 8. */
function dense4x4(ar: usize, as: usize, K: i32, bc: usize, bs: usize, dst: usize, os: usize, bp: usize, mode: i32, hp: usize, hs: usize): void {
  let a0 = f32x4.splat(0), b0 = a0, c0 = a0, d0 = a0;
  if (bp) {
    a0 = v128.load(bp);
    b0 = a0; c0 = a0; d0 = a0;
  }
  let xp = ar;
  let wp = bc;
  for (let k = 0; k < K; k++) {
    const w0 = v128.load(wp);
    a0 = madd(v128.load32_splat(xp), w0, a0);
    b0 = madd(v128.load32_splat(xp + as), w0, b0);
    c0 = madd(v128.load32_splat(xp + 2 * as), w0, c0);
    d0 = madd(v128.load32_splat(xp + 3 * as), w0, d0);
    xp += 4;
    wp += bs;
  }
  v128.store(dst, epi(a0, mode, hp));
  v128.store(dst + os, epi(b0, mode, hp + hs));
  v128.store(dst + 2 * os, epi(c0, mode, hp + 2 * hs));
  v128.store(dst + 3 * os, epi(d0, mode, hp + 3 * hs));
}

/**
 * out[r, 0 .. N) = (bias or 0) + Σ_{k < K} A[r, k] · B[k, 0 .. N) for r < R (R and N multiples of
 * 4; row strides as, bs, os, hs in bytes), the epilogue `mode` at the store: the kernel for dense
 * inputs (an input layer without zeros, tanh activations), where listing nonzeros costs more than
 * it skips. Each row is the same sum in the same order as {@link spmm}'s (bias, then k ascending).
 */
function dense(R: i32, K: i32, N: i32, a: usize, as: usize, b: usize, bs: usize, out: usize, os: usize, bias: usize, mode: i32, h: usize, hs: usize): void {
  for (let r = 0; r < R; r += 4) {
    const ar = a + <usize>r * as;
    const dr = out + <usize>r * os;
    const hr = h + <usize>r * hs;
    let c = 0;
    for (; c + 8 <= N; c += 8) dense4x8(ar, as, K, b + (<usize>c << 2), bs, dr + (<usize>c << 2), os, bias ? bias + (<usize>c << 2) : 0, mode, hr + (<usize>c << 2), hs);
    if (c < N) dense4x4(ar, as, K, b + (<usize>c << 2), bs, dr + (<usize>c << 2), os, bias ? bias + (<usize>c << 2) : 0, mode, hr + (<usize>c << 2), hs);
  }
}

/** Nonzeros among R rows of C values (C a multiple of 4, row stride ss bytes). */
function nonzeros(R: i32, C: i32, src: usize, ss: usize): i32 {
  let n = 0;
  const zero = f32x4.splat(0);
  for (let r = 0; r < R; r++) {
    const s = src + <usize>r * ss;
    for (let c = 0; c < C; c += 4) n += popcnt<i32>(i32x4.bitmask(f32x4.ne(v128.load(s + (<usize>c << 2)), zero)));
  }
  return n;
}

/** Bit l set: level l's activations are treated as dense in this training step (see {@link trainForward}). */
let denseLevels: u32 = 0;

/**
 * Layers this narrow (outputs, padded) go through {@link dense} in training whatever their
 * inputs: the forward pass of a last layer (every output computed) and the weight gradient.
 * Listing nonzeros pays its list walk per pass of at most 48 columns; with 32 columns or fewer
 * a pass does too few multiply-adds per entry to beat the dense kernel on half-zero ReLU inputs.
 */
const NARROW: i32 = 32;

/** Inputs with more nonzeros than this fraction go through {@link dense} in training. */
const DENSE_FRACTION: f64 = 0.7;

/**
 * Left-packing shuffles: for a 4-bit lane mask m, the bytes that move the set lanes of a
 * float32x4 to its front, in order (i8x16.swizzle); unused lanes read 0.
 */
const PACK = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128,
  8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128,
  12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128,
  8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);

/**
 * Lists the nonzeros of the rows of src (P rows of C values, C a multiple of 4, row stride ss
 * bytes): list p gets (c · ms, src[p, c]) for each c with src[p, c] ≠ 0, c ascending (ms: the row
 * stride in bytes of the matrix the lists will index). Four values at a time: their nonzero
 * lanes are packed to the front with one swizzle and interleaved with their offsets (lists have
 * 4 entries of slack for the full-width stores).
 */
function rowLists(P: i32, C: i32, src: usize, ss: usize, ms: usize): void {
  const cap = T(LCAP) << 3;
  const list = T(LIST);
  const cnt = T(LCNT);
  const zero = f32x4.splat(0);
  const step = i32x4.splat(4 * <i32>ms);
  const lanes = i32x4.mul(i32x4(0, 1, 2, 3), i32x4.splat(<i32>ms));
  for (let p = 0; p < P; p++) {
    const ep = list + <usize>p * cap;
    const s = src + <usize>p * ss;
    let n: usize = 0;
    let at = lanes;
    for (let c = 0; c < C; c += 4) {
      const x = v128.load(s + (<usize>c << 2));
      const m = i32x4.bitmask(f32x4.ne(x, zero));
      if (m) {
        const sh = v128.load(PACK + (<usize>m << 4));
        const vals = i8x16.swizzle(x, sh);
        const offs = i8x16.swizzle(at, sh);
        const q = ep + (n << 3);
        v128.store(q, v128.shuffle<i32>(offs, vals, 0, 4, 1, 5));
        v128.store(q, v128.shuffle<i32>(offs, vals, 2, 6, 3, 7), 16);
        n += <usize>popcnt<i32>(m);
      }
      at = i32x4.add(at, step);
    }
    store<i32>(cnt + (<usize>p << 2), <i32>n);
  }
}

/**
 * dst[j, i] = src[i, j] for i < R, j < C (C a multiple of 4; src row stride ss bytes); dst rows
 * are round4(R) floats, rows of src from R to round4(R) read as 0. 4 × 4 blocks in registers.
 */
function transpose(src: usize, ss: usize, R: i32, C: i32, dst: usize): void {
  const R4 = (R + 3) & ~3;
  const ds = <usize>R4 << 2;
  const zero = f32x4.splat(0);
  for (let i = 0; i < R4; i += 4) {
    const r0 = src + <usize>i * ss;
    const full = i + 4 <= R;
    for (let j = 0; j < C; j += 4) {
      const o = <usize>j << 2;
      const a = v128.load(r0 + o);
      let b = zero, c = zero, d = zero;
      if (full) {
        b = v128.load(r0 + ss + o);
        c = v128.load(r0 + 2 * ss + o);
        d = v128.load(r0 + 3 * ss + o);
      } else {
        if (i + 1 < R) b = v128.load(r0 + ss + o);
        if (i + 2 < R) c = v128.load(r0 + 2 * ss + o);
      }
      const t0 = v128.shuffle<f32>(a, b, 0, 4, 1, 5);
      const t1 = v128.shuffle<f32>(a, b, 2, 6, 3, 7);
      const t2 = v128.shuffle<f32>(c, d, 0, 4, 1, 5);
      const t3 = v128.shuffle<f32>(c, d, 2, 6, 3, 7);
      const q = dst + <usize>j * ds + (<usize>i << 2);
      v128.store(q, v128.shuffle<f32>(t0, t2, 0, 1, 4, 5));
      v128.store(q + ds, v128.shuffle<f32>(t0, t2, 2, 3, 6, 7));
      v128.store(q + 2 * ds, v128.shuffle<f32>(t1, t3, 0, 1, 4, 5));
      v128.store(q + 3 * ds, v128.shuffle<f32>(t1, t3, 2, 3, 6, 7));
    }
  }
}

/**
 * Lists the nonzeros of the columns of src (R rows of C values, row stride ss bytes): list c
 * gets (r · ms, src[r, c]) for each r with src[r, c] ≠ 0, r ascending (through a transpose
 * into the scratch region WT).
 */
function colLists(R: i32, C: i32, src: usize, ss: usize, ms: usize): void {
  const R4 = (R + 3) & ~3;
  transpose(src, ss, R, C, T(WT));
  rowLists(C, R4, T(WT), <usize>R4 << 2, ms);
}

/** out[0 .. N) = Σ over R rows of src (row stride ss bytes); N a multiple of 4. */
function colSums(R: i32, N: i32, src: usize, ss: usize, out: usize): void {
  for (let c = 0; c < N; c += 4) v128.store(out + (<usize>c << 2), f32x4.splat(0));
  for (let r = 0; r < R; r++) {
    const s = src + <usize>r * ss;
    for (let c = 0; c < N; c += 4) {
      const o = out + (<usize>c << 2);
      v128.store(o, f32x4.add(v128.load(o), v128.load(s + (<usize>c << 2))));
    }
  }
}

/** Forward pass of `rows` rows of ACT[0] through the hidden layers (and the last one unless `skipLast`). */
function hidden(rows: i32, last: i32): void {
  const L = TI(L_);
  const act = TI(ACTKIND) == 1 ? E_TANH : E_RELU;
  const P = T(PARAMS);
  for (let l = 0; l < last; l++) {
    const inW = TI(WIDTH + l);
    const outW = TI(WIDTH + l + 1);
    rowLists(rows, inW, T(ACT + l), <usize>inW << 2, <usize>outW << 2);
    spmm(rows, outW, P + T(OFFW + l), T(ACT + l + 1), <usize>outW << 2, P + T(OFFB + l), l + 1 < L ? act : E_NONE, 0, 0);
  }
}

/** The network's outputs for `rows` rows of ACT[0] (into ACT[L]), every layer through lists (exactly row-independent). */
export function forward(rows: i32): void {
  hidden(rows, TI(L_));
}

/**
 * The training forward pass of `rows` rows: a layer whose input is dense (the input rows when
 * more than {@link DENSE_FRACTION} of them are nonzero; every tanh layer) goes through
 * {@link dense} on round4(rows) rows (rows past `rows` are scratch), the others through lists.
 * Records the choice per level for the backward pass.
 */
function trainForward(rows: i32): void {
  const L = TI(L_);
  const tanh = TI(ACTKIND) == 1;
  const act = tanh ? E_TANH : E_RELU;
  const P = T(PARAMS);
  const R4 = (rows + 3) & ~3;
  denseLevels = 0;
  for (let l = 0; l < L; l++) {
    const inW = TI(WIDTH + l);
    const outW = TI(WIDTH + l + 1);
    const mode = l + 1 < L ? act : E_NONE;
    const isDense = l == 0 ? <f64>nonzeros(rows, inW, T(ACT), <usize>inW << 2) > DENSE_FRACTION * <f64>(rows * TI(RAW)) : tanh;
    if (isDense) denseLevels |= 1 << l;
    if (isDense || (l + 1 == L && outW <= NARROW)) {
      dense(R4, inW, outW, T(ACT + l), <usize>inW << 2, P + T(OFFW + l), <usize>outW << 2, T(ACT + l + 1), <usize>outW << 2, P + T(OFFB + l), mode, 0, 0);
    } else if (l + 1 == L) {
      lastLayer(rows, T(MASKS), TI(UNITS)); // the loss reads the legal logits and the value only
    } else {
      rowLists(rows, inW, T(ACT + l), <usize>inW << 2, <usize>outW << 2);
      spmm(rows, outW, P + T(OFFW + l), T(ACT + l + 1), <usize>outW << 2, P + T(OFFB + l), mode, 0, 0);
    }
  }
}

/**
 * The acting forward pass: `rows` rows of ACT[0]; with `width` > 0, NEEDED holds rows × width
 * flags (legal actions) and groups of eight of the first `width` outputs with no flag set are not
 * computed (they read 0), every other output bit for bit as {@link forward}. The outputs are
 * copied to OUT without padding (rows × RAW[L]).
 */
export function act(rows: i32, width: i32): void {
  const L = TI(L_);
  hidden(rows, L - 1);
  lastLayer(rows, T(NEEDED), width);
  const outW = TI(WIDTH + L);
  const raw = TI(RAW + L);
  for (let p = 0; p < rows; p++) memory.copy(T(OUT) + (<usize>(p * raw) << 2), T(ACT + L) + (<usize>(p * outW) << 2), <usize>raw << 2);
}

/** Columns [c0, c1) of one row of a list product (multiples of 4): the widest passes first. */
function span(ep: usize, end: usize, M: usize, bias: usize, dst: usize, c0: i32, c1: i32): void {
  let c = c0;
  while (c < c1) {
    const n = c1 - c;
    const o = <usize>c << 2;
    if (n >= 48 && n != 64) {
      tile48(ep, end, M + o, bias + o, dst + o, E_NONE, 0);
      c += 48;
    } else if (n >= 32) {
      tile32(ep, end, M + o, bias + o, dst + o, E_NONE, 0);
      c += 32;
    } else if (n >= 16) {
      tile16(ep, end, M + o, bias + o, dst + o, E_NONE, 0);
      c += 16;
    } else if (n >= 8) {
      tile8(ep, end, M + o, bias + o, dst + o, E_NONE, 0);
      c += 8;
    } else {
      tile4(ep, end, M + o, bias + o, dst + o, E_NONE, 0);
      c += 4;
    }
  }
}

/**
 * The last layer of `rows` rows of ACT[L − 1] into ACT[L], computing only what a policy reads:
 * with `width` > 0, `needed` holds rows × width flags (legal actions) and groups of eight of the
 * first `width` outputs with no flag set in that row are not computed (they read 0); runs of
 * needed groups go through the widest passes; every computed output is bit for bit what
 * {@link spmm} gives. Outputs from the last whole group on (the value) are always computed.
 */
function lastLayer(rows: i32, needed: usize, width: i32): void {
  const L = TI(L_);
  const l = L - 1;
  const inW = TI(WIDTH + l);
  const outW = TI(WIDTH + L);
  const P = T(PARAMS);
  const W = P + T(OFFW + l);
  const B = P + T(OFFB + l);
  const out = T(ACT + L);
  rowLists(rows, inW, T(ACT + l), <usize>inW << 2, <usize>outW << 2);
  const cap = T(LCAP) << 3;
  const zero = f32x4.splat(0);
  const groups = width > 0 ? width >> 3 : 0;
  for (let p = 0; p < rows; p++) {
    const ep = T(LIST) + <usize>p * cap;
    const end = ep + (<usize>load<i32>(T(LCNT) + (<usize>p << 2)) << 3);
    const dst = out + (<usize>(p * outW) << 2);
    const np = needed + (<usize>(p * width) << 2);
    let runStart = -1;
    for (let g = 0; g < groups; g++) {
      const c = g << 3;
      const a = v128.load(np + (<usize>c << 2));
      const b = v128.load(np + (<usize>c << 2), 16);
      if (v128.any_true(v128.or(f32x4.ne(a, zero), f32x4.ne(b, zero)))) {
        if (runStart < 0) runStart = c;
        continue;
      }
      if (runStart >= 0) {
        span(ep, end, W, B, dst, runStart, c);
        runStart = -1;
      }
      v128.store(dst + (<usize>c << 2), zero);
      v128.store(dst + (<usize>c << 2), zero, 16);
    }
    span(ep, end, W, B, dst, runStart >= 0 ? runStart : groups << 3, outW);
  }
}

/**
 * Copies minibatch rows ORDER[start .. start + count) of the sample store into ACT[0], MASKS,
 * ACTIONS, OLDLOGP, ADV and RET (row r of the minibatch = sample ORDER[start + r]).
 */
function gather(start: i32, count: i32): void {
  const inSize = <usize>TI(INSIZE) << 2;
  const inW = <usize>TI(WIDTH) << 2;
  const A = <usize>TI(UNITS) << 2;
  const order = T(ORDER);
  const x = T(ACT);
  const sx = T(SX);
  const masks = T(MASKS);
  const smask = T(SMASK);
  for (let r = 0; r < count; r++) {
    const s = <usize>load<i32>(order + (<usize>(start + r) << 2));
    memory.copy(x + <usize>r * inW, sx + s * inSize, inSize);
    memory.copy(masks + <usize>r * A, smask + s * A, A);
    const o = <usize>r << 2;
    const so = s << 2;
    store<i32>(T(ACTIONS) + o, load<i32>(T(SACT) + so));
    store<f32>(T(OLDLOGP) + o, load<f32>(T(SLOGP) + so));
    store<f32>(T(ADV) + o, load<f32>(T(SADV) + so));
    store<f32>(T(RET) + o, load<f32>(T(SRET) + so));
  }
}

const LOG2E: f64 = 1.4426950408889634;
const LN2_HI: f64 = 6.93147180369123816490e-01; // ln 2 with trailing zero bits: k · LN2_HI is exact
const LN2_LO: f64 = 1.90821492927058770002e-10;

/**
 * e^x in both f64 lanes for x ≤ 0 (the loss's l − max): x = k·ln 2 + r with |r| ≤ ln 2 / 2
 * (Cody–Waite), e^r by its Taylor series to degree 13 (truncation below 2e-17 relative), times
 * 2^k through the exponent bits; below −708.39 (where 2^k leaves the normal range) it reads 0, as
 * Math.exp underflows there to 0 or a subnormal the loss cannot tell from 0. NaN stays NaN.
 * Within a few ulp of Math.exp (test/train/fused-loss.test.ts).
 */
@inline function expNeg2(x: v128): v128 {
  const k = f64x2.nearest(f64x2.mul(x, f64x2.splat(LOG2E)));
  const r = f64x2.sub(f64x2.sub(x, f64x2.mul(k, f64x2.splat(LN2_HI))), f64x2.mul(k, f64x2.splat(LN2_LO)));
  let p = f64x2.splat(1.0 / 6227020800.0);
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 479001600.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 39916800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 3628800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 362880.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 40320.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 5040.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 720.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 120.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 24.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 6.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(0.5));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  const bits = i64x2.shl(i64x2.add(i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(k)), i64x2.splat(1023)), 52);
  return v128.andnot(f64x2.mul(p, bits), f64x2.lt(x, f64x2.splat(-708.39)));
}

/** All-ones lanes where units j .. j + 3 exist (< A) and their mask (row at mk) is > 0. */
@inline function legal4(mk: usize, j: i32, A: i32): v128 {
  const inside = i32x4.lt_s(i32x4.add(i32x4(0, 1, 2, 3), i32x4.splat(j)), i32x4.splat(A));
  return v128.and(inside, f32x4.gt(v128.load(mk + (<usize>j << 2)), f32x4.splat(0)));
}

/** The high two f32 lanes of `x` as f64x2. */
@inline function promoteHigh(x: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(x, x, 2, 3, 0, 1));
}

/**
 * The PPO loss of ACT[L] (rows × (UNITS logits, value)) on MASKS, ACTIONS, OLDLOGP, ADV, RET and
 * its gradient w.r.t. the outputs into DZA: the formulas of src/train/policy-loss.ts in f64, four
 * units at a time (the max in f32, exponentials, probabilities, entropy and gradients in f64x2
 * pairs; sums in two lanes, so their rounding differs from the sequential JS sums in the last
 * bits); groups of four without a legal unit are skipped (probabilities and gradients 0).
 * PROBS holds round4(UNITS) f64, then the row's live groups (round4(UNITS) / 4 i32). Writes
 * the stats; on a row without a legal action, or an action its mask marks illegal, writes the
 * error and stops.
 */
function loss(B: i32, clip: f64, valueCoef: f64, entropyCoef: f64): void {
  const L = TI(L_);
  const A = TI(UNITS);
  const W = TI(WIDTH + L);
  const outs = T(ACT + L);
  const grad = T(DZA);
  const masks = T(MASKS);
  const probs = T(PROBS);
  const live = probs + (<usize>((A + 3) & ~3) << 3);
  const inv = 1.0 / <f64>B;
  const zero = f64x2.splat(0);
  let pgSum = 0.0, vSum = 0.0, hSum = 0.0, klSum = 0.0, clipped = 0.0;
  stat(S_ERROR, 0);
  for (let i = 0; i < B; i++) {
    const o = outs + (<usize>(i * W) << 2);
    const mk = masks + (<usize>(i * A) << 2);
    const g = grad + (<usize>(i * W) << 2);
    // the largest legal logit (NaN logits are never the max, as with `>` in policy-loss.ts)
    // and the groups of four units with a legal one (most of a large action space has none: the
    // other passes visit only these; probabilities and gradients elsewhere are 0)
    let mx = f32x4.splat(-Infinity);
    let nlive = 0;
    for (let j = 0; j < A; j += 4) {
      const m = legal4(mk, j, A);
      if (!v128.any_true(m)) continue;
      store<i32>(live + (<usize>nlive << 2), j);
      nlive++;
      mx = f32x4.pmax(mx, v128.bitselect(v128.load(o + (<usize>j << 2)), f32x4.splat(-Infinity), m));
    }
    const max = <f64>Mathf.max(Mathf.max(f32x4.extract_lane(mx, 0), f32x4.extract_lane(mx, 1)), Mathf.max(f32x4.extract_lane(mx, 2), f32x4.extract_lane(mx, 3)));
    if (max == -Infinity) {
      stat(S_ERROR, 1);
      stat(S_ERROR_ROW, i);
      return;
    }
    const vmax = f64x2.splat(max);
    let sv = zero;
    for (let t = 0; t < nlive; t++) {
      const j = load<i32>(live + (<usize>t << 2));
      const m = legal4(mk, j, A);
      const x = v128.load(o + (<usize>j << 2));
      const e0 = v128.and(expNeg2(f64x2.sub(f64x2.promote_low_f32x4(x), vmax)), i64x2.extend_low_i32x4_s(m));
      const e1 = v128.and(expNeg2(f64x2.sub(promoteHigh(x), vmax)), i64x2.extend_high_i32x4_s(m));
      v128.store(probs + (<usize>j << 3), e0);
      v128.store(probs + (<usize>j << 3), e1, 16);
      sv = f64x2.add(sv, f64x2.add(e0, e1));
    }
    const sum = f64x2.extract_lane(sv, 0) + f64x2.extract_lane(sv, 1);
    const lse = max + Math.log(sum);
    const a = load<i32>(T(ACTIONS) + (<usize>i << 2));
    if (a < 0 || a >= A || !(load<f32>(mk + (<usize>a << 2)) > 0)) {
      stat(S_ERROR, 2);
      stat(S_ERROR_ROW, i);
      return;
    }
    const logp = <f64>load<f32>(o + (<usize>a << 2)) - lse;
    const ratio = Math.exp(logp - <f64>load<f32>(T(OLDLOGP) + (<usize>i << 2)));
    const adv = <f64>load<f32>(T(ADV) + (<usize>i << 2));
    const s1 = ratio * adv;
    const cr = Math.min(Math.max(ratio, 1 - clip), 1 + clip);
    const s2 = cr * adv;
    const active = s1 <= s2;
    if (!active) clipped += 1;
    pgSum += -Math.min(s1, s2);
    const gi = active ? -ratio * adv : 0.0;
    klSum += ratio - 1 - Math.log(ratio);
    // probabilities (e / sum) and the entropy −Σ p·log p over p > 0
    const vsum = f64x2.splat(sum);
    const vlse = f64x2.splat(lse);
    let hv = zero;
    for (let t = 0; t < nlive; t++) {
      const j = load<i32>(live + (<usize>t << 2));
      const x = v128.load(o + (<usize>j << 2));
      const q = probs + (<usize>j << 3);
      const p0 = f64x2.div(v128.load(q), vsum);
      const p1 = f64x2.div(v128.load(q, 16), vsum);
      v128.store(q, p0);
      v128.store(q, p1, 16);
      hv = f64x2.sub(hv, v128.and(f64x2.mul(p0, f64x2.sub(f64x2.promote_low_f32x4(x), vlse)), f64x2.gt(p0, zero)));
      hv = f64x2.sub(hv, v128.and(f64x2.mul(p1, f64x2.sub(promoteHigh(x), vlse)), f64x2.gt(p1, zero)));
    }
    const h = f64x2.extract_lane(hv, 0) + f64x2.extract_lane(hv, 1);
    hSum += h;
    // d = inv·(gi·([j = a] − p) + c_e·p·(log p + h)) where p > 0, else 0 (the [j = a] term below)
    const vgi = f64x2.splat(-gi);
    const vce = f64x2.splat(entropyCoef);
    const vh = f64x2.splat(h);
    const vinv = f64x2.splat(inv);
    memory.fill(g, 0, <usize>W << 2);
    for (let t = 0; t < nlive; t++) {
      const j = load<i32>(live + (<usize>t << 2));
      const x = v128.load(o + (<usize>j << 2));
      const q = probs + (<usize>j << 3);
      const p0 = v128.load(q);
      const p1 = v128.load(q, 16);
      const d0 = v128.and(f64x2.mul(vinv, f64x2.add(f64x2.mul(vgi, p0), f64x2.mul(f64x2.mul(vce, p0), f64x2.add(f64x2.sub(f64x2.promote_low_f32x4(x), vlse), vh)))), f64x2.gt(p0, zero));
      const d1 = v128.and(f64x2.mul(vinv, f64x2.add(f64x2.mul(vgi, p1), f64x2.mul(f64x2.mul(vce, p1), f64x2.add(f64x2.sub(promoteHigh(x), vlse), vh)))), f64x2.gt(p1, zero));
      v128.store(g + (<usize>j << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(d0), f32x4.demote_f64x2_zero(d1), 0, 1, 4, 5));
    }
    const pa = load<f64>(probs + (<usize>a << 3));
    store<f32>(g + (<usize>a << 2), <f32>(inv * (gi * (1.0 - pa) + entropyCoef * pa * (<f64>load<f32>(o + (<usize>a << 2)) - lse + h))));
    const v = <f64>load<f32>(o + (<usize>A << 2));
    const diff = v - <f64>load<f32>(T(RET) + (<usize>i << 2));
    vSum += 0.5 * diff * diff;
    store<f32>(g + (<usize>A << 2), <f32>(inv * valueCoef * diff));
  }
  const policy = pgSum * inv;
  const value = vSum * inv;
  const ent = hSum * inv;
  stat(S_LOSS, policy + valueCoef * value - entropyCoef * ent);
  stat(S_PG, policy);
  stat(S_VALUE, value);
  stat(S_ENTROPY, ent);
  stat(S_KL, klSum * inv);
  stat(S_CLIP, clipped * inv);
}

/**
 * Whether W' = ACTᵀ · dz costs less listed by dz's columns (nonzeros of dz × input width, plus
 * the transposes) than by the inputs' columns (nonzeros of the inputs × output width).
 */
function sparserGradient(rows: i32, inW: i32, outW: i32, act: usize, dz: usize): bool {
  const byInputs = <f64>nonzeros(rows, inW, act, <usize>inW << 2) * <f64>outW;
  const byGrads = <f64>nonzeros(rows, outW, dz, <usize>outW << 2) * <f64>inW + <f64>(rows * outW + outW * inW);
  return byGrads < byInputs;
}

/** Backward pass of the loss gradient in DZA (rows × WIDTH[L]) into GRADS. */
function backward(rows: i32): void {
  const L = TI(L_);
  const tanh = TI(ACTKIND) == 1;
  const P = T(PARAMS);
  const G = T(GRADS);
  let dz = T(DZA);
  let other = T(DZB);
  for (let l = L - 1; l >= 0; l--) {
    const inW = TI(WIDTH + l);
    const outW = TI(WIDTH + l + 1);
    const os = <usize>outW << 2;
    const is = <usize>inW << 2;
    // dW_l = ACT[l]ᵀ · dz: dense inputs as a product with their transpose, else one list per input column
    if (denseLevels & (1 << l) || outW <= NARROW) {
      const R4 = (rows + 3) & ~3;
      transpose(T(ACT + l), is, rows, inW, T(WT));
      dense(inW, rows, outW, T(WT), <usize>R4 << 2, dz, os, G + T(OFFW + l), os, 0, E_NONE, 0, 0);
    } else if (sparserGradient(rows, inW, outW, T(ACT + l), dz)) {
      // dz much sparser than the inputs (a policy head: only legal actions have gradients):
      // dWᵀ = dzᵀ · ACT[l], one list per output column, into the scratch, then transposed
      colLists(rows, outW, dz, os, is);
      spmm(outW, inW, T(ACT + l), T(WT), is, 0, E_NONE, 0, 0);
      transpose(T(WT), is, outW, inW, G + T(OFFW + l));
    } else {
      colLists(rows, inW, T(ACT + l), is, os);
      spmm(inW, outW, dz, G + T(OFFW + l), os, 0, E_NONE, 0, 0);
    }
    colSums(rows, outW, dz, os, G + T(OFFB + l));
    if (l > 0) {
      // dz_{l−1} = (dz · W_lᵀ) ⊙ act'(ACT[l]); ReLU gradients are as sparse as the activations
      transpose(P + T(OFFW + l), os, inW, outW, T(WT));
      if (tanh) dense((rows + 3) & ~3, outW, inW, dz, os, T(WT), is, other, is, 0, E_TANH_GRAD, T(ACT + l), is);
      else {
        rowLists(rows, outW, dz, os, is);
        spmm(rows, inW, T(WT), other, is, 0, E_RELU_GRAD, T(ACT + l), is);
      }
      const t = dz;
      dz = other;
      other = t;
    }
  }
}

/**
 * Loss and gradients (into GRADS) of minibatch rows ORDER[start .. start + count): gather,
 * forward, loss, backward. The stats slots hold the loss terms (and an error code).
 */
export function lossGrad(start: i32, count: i32, clip: f64, valueCoef: f64, entropyCoef: f64): void {
  gather(start, count);
  trainForward(count);
  loss(count, clip, valueCoef, entropyCoef);
  if (load<f64>(T(STATS) + (<usize>S_ERROR << 3)) != 0) return;
  backward(count);
}

/**
 * Adam over the whole parameter region with the gradients in GRADS scaled by the global-norm
 * clipping factor (maxNorm ≤ 0 or not finite: no clipping); c1 = 1 / (1 − β1^t), c2 = 1 / (1 − β2^t).
 * Returns ‖g‖₂ before clipping (also in the stats).
 */
export function adam(lr: f64, b1: f64, b2: f64, eps: f64, c1: f64, c2: f64, maxNorm: f64): f64 {
  const n = TI(TOTAL);
  const P = T(PARAMS);
  const G = T(GRADS);
  const M1 = T(MOM1);
  const M2 = T(MOM2);
  let acc = f64x2.splat(0);
  for (let i = 0; i < n; i += 4) {
    const g = v128.load(G + (<usize>i << 2));
    const lo = f64x2.promote_low_f32x4(g);
    const hi = f64x2.promote_low_f32x4(v128.shuffle<f32>(g, g, 2, 3, 0, 1));
    acc = f64x2.add(acc, f64x2.add(f64x2.mul(lo, lo), f64x2.mul(hi, hi)));
  }
  const norm = Math.sqrt(f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1));
  let scale = 1.0;
  if (maxNorm > 0 && isFinite(maxNorm) && norm > maxNorm) scale = maxNorm / norm;
  const sc = f32x4.splat(<f32>scale);
  const vb1 = f32x4.splat(<f32>b1);
  const vb1c = f32x4.splat(<f32>(1 - b1));
  const vb2 = f32x4.splat(<f32>b2);
  const vb2c = f32x4.splat(<f32>(1 - b2));
  const step = f32x4.splat(<f32>(lr * c1));
  const vc2 = f32x4.splat(<f32>c2);
  const veps = f32x4.splat(<f32>eps);
  for (let i = 0; i < n; i += 4) {
    const o = <usize>i << 2;
    const g = f32x4.mul(v128.load(G + o), sc);
    const m = f32x4.add(f32x4.mul(vb1, v128.load(M1 + o)), f32x4.mul(vb1c, g));
    const v = f32x4.add(f32x4.mul(vb2, v128.load(M2 + o)), f32x4.mul(vb2c, f32x4.mul(g, g)));
    v128.store(M1 + o, m);
    v128.store(M2 + o, v);
    const upd = f32x4.div(f32x4.mul(step, m), f32x4.add(f32x4.sqrt(f32x4.mul(v, vc2)), veps));
    v128.store(P + o, f32x4.sub(v128.load(P + o), upd));
  }
  stat(S_NORM, norm);
  return norm;
}

/** One PPO minibatch step: {@link lossGrad} then {@link adam} (skipped when the loss reported an error). */
export function step(start: i32, count: i32, clip: f64, valueCoef: f64, entropyCoef: f64, lr: f64, b1: f64, b2: f64, eps: f64, c1: f64, c2: f64, maxNorm: f64): void {
  lossGrad(start, count, clip, valueCoef, entropyCoef);
  if (load<f64>(T(STATS) + (<usize>S_ERROR << 3)) != 0) return;
  adam(lr, b1, b2, eps, c1, c2, maxNorm);
}
