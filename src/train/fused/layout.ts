/**
 * The memory layout of a fused MLP instance (assembly/fused-mlp.ts): the table of sizes and byte
 * offsets the module reads at its heap base ({@link SLOT}: the same numbers as the constants
 * there, checked by test/train/fused-layout.test.ts), and where each region lies for a network
 * spec, a number of rows (minibatch or acting batch) and, when training, a sample store.
 *
 * Widths are padded to multiples of 4 floats (one float32x4); the parameters come first and
 * never move when the row or sample capacity grows (everything after them is scratch).
 */
import { layerSizes, type MlpSpec } from '../mlp';

/** Table slots (i32) read by the module; per-level and per-layer slots add the index. */
export const SLOT = {
  L: 0,
  ACTKIND: 1,
  UNITS: 3,
  PARAMS: 4,
  GRADS: 5,
  MOM1: 6,
  MOM2: 7,
  TOTAL: 8,
  DZA: 9,
  DZB: 10,
  WT: 11,
  LIST: 12,
  LCNT: 14,
  LCAP: 15,
  MASKS: 16,
  ACTIONS: 17,
  OLDLOGP: 18,
  ADV: 19,
  RET: 20,
  STATS: 21,
  SX: 22,
  SMASK: 23,
  SACT: 24,
  SLOGP: 25,
  SADV: 26,
  SRET: 27,
  ORDER: 28,
  INSIZE: 29,
  OUT: 30,
  NEEDED: 31,
  PROBS: 32,
  WIDTH: 40,
  RAW: 60,
  ACT: 80,
  OFFW: 100,
  OFFB: 120,
} as const;

/** Most weight matrices a fused network may have (the table has 20 per-level slots). */
export const MAX_FUSED_LAYERS = 19;

/** Bytes reserved for the table. */
const TABLE_BYTES = 1024;

/** Statistics slots (f64) written by the module. */
export const STAT = { loss: 0, policyLoss: 1, valueLoss: 2, entropy: 3, approxKl: 4, clipFraction: 5, gradNorm: 6, error: 7, errorRow: 8 } as const;

/** `n` rounded up to a multiple of 4. */
export const pad4 = (n: number): number => (n + 3) & ~3;

const align = (n: number, a = 64): number => Math.ceil(n / a) * a;

/** What a layout is sized for. */
export interface Capacity {
  /** Rows per pass (minibatch or acting batch). */
  rows: number;
  /** Samples in the store (0: no store, an acting network). */
  samples: number;
  /** Whether gradients, Adam moments and the training scratch exist. */
  training: boolean;
}

/** Every region of an instance, in bytes from the start of its memory. */
export interface Layout {
  table: number;
  /** Unpadded and padded widths of each level (input, hidden..., output). */
  raw: number[];
  width: number[];
  /** Byte offsets of W_l and b_l inside the parameter region (the same in grads and moments). */
  offW: number[];
  offB: number[];
  /** Floats in the parameter region (padded). */
  total: number;
  params: number;
  grads: number;
  mom1: number;
  mom2: number;
  /** Activations of each level (act[0] = input rows). */
  act: number[];
  dzA: number;
  dzB: number;
  wt: number;
  /** List entries: (byte offset, value) pairs, `lcap` per list. */
  list: number;
  /** Entries per list (i32). */
  lcnt: number;
  /** Entries per list. */
  lcap: number;
  masks: number;
  actions: number;
  oldLogp: number;
  adv: number;
  ret: number;
  stats: number;
  probs: number;
  needed: number;
  out: number;
  sx: number;
  smask: number;
  sact: number;
  slogp: number;
  sadv: number;
  sret: number;
  order: number;
  /** First byte after everything. */
  end: number;
  cap: Capacity;
}

/** The layout of `spec` (units = policy outputs, the value after them) from `heapBase` for `cap`. */
export function computeLayout(spec: MlpSpec, heapBase: number, cap: Capacity): Layout {
  const raw = layerSizes(spec);
  const L = raw.length - 1;
  if (L > MAX_FUSED_LAYERS) throw new Error(`fused MLP: at most ${MAX_FUSED_LAYERS} layers, got ${L}`);
  const width = raw.map(pad4);
  const units = raw[L] - 1;
  let at = align(heapBase + TABLE_BYTES);
  const take = (bytes: number): number => {
    const p = at;
    at = align(at + bytes);
    return p;
  };
  const offW: number[] = [];
  const offB: number[] = [];
  let total = 0;
  for (let l = 0; l < L; l++) {
    offW.push(total * 4);
    total += width[l] * width[l + 1];
    offB.push(total * 4);
    total += width[l + 1];
  }
  const params = take(total * 4);
  const t = cap.training;
  const grads = t ? take(total * 4) : 0;
  const mom1 = t ? take(total * 4) : 0;
  const mom2 = t ? take(total * 4) : 0;
  const stats = take(16 * 8);
  // the loss writes four probabilities at a time (f64), then lists the groups of four with a legal action (i32)
  const probs = take(pad4(Math.max(1, units)) * 8 + pad4(Math.max(1, units)));
  // the dense kernel computes rows in fours: row regions hold round4(rows)
  const rows = pad4(Math.max(1, cap.rows));
  const act = width.map((w) => take(rows * w * 4));
  const maxW = Math.max(...width);
  let maxWt = 0;
  for (let l = 0; l < L; l++) maxWt = Math.max(maxWt, width[l] * width[l + 1]);
  const dzA = t ? take(rows * maxW * 4) : 0;
  const dzB = t ? take(rows * maxW * 4) : 0;
  // the scratch holds a transposed weight matrix or weight gradient, or a transposed block of rows (colLists)
  const wt = t ? take(Math.max(maxWt, maxW * pad4(rows)) * 4) : 0;
  // 4 entries of slack: list building stores four lanes at a time
  const lcap = Math.max(maxW, pad4(rows)) + 4;
  const lists = Math.max(maxW, rows);
  const list = take(lists * lcap * 8);
  const lcnt = take(lists * 4);
  const masks = t ? take(rows * units * 4) : 0;
  const actions = t ? take(rows * 4) : 0;
  const oldLogp = t ? take(rows * 4) : 0;
  const adv = t ? take(rows * 4) : 0;
  const ret = t ? take(rows * 4) : 0;
  const needed = take(rows * units * 4);
  const out = take(rows * raw[L] * 4);
  const n = t ? cap.samples : 0;
  const sx = n ? take(n * raw[0] * 4) : 0;
  const smask = n ? take(n * units * 4) : 0;
  const sact = n ? take(n * 4) : 0;
  const slogp = n ? take(n * 4) : 0;
  const sadv = n ? take(n * 4) : 0;
  const sret = n ? take(n * 4) : 0;
  const order = n ? take(n * 4) : 0;
  return { table: heapBase, raw, width, offW, offB, total, params, grads, mom1, mom2, act, dzA, dzB, wt, list, lcnt, lcap, masks, actions, oldLogp, adv, ret, stats, probs, needed, out, sx, smask, sact, slogp, sadv, sret, order, end: at, cap: { ...cap, rows } };
}

/** Writes the table of `lay` into memory (`i32`: a view of the whole memory). */
export function writeTable(i32: Int32Array, lay: Layout, activation: 'relu' | 'tanh'): void {
  const base = lay.table >> 2;
  i32.fill(0, base, base + 256);
  const set = (slot: number, v: number) => (i32[base + slot] = v);
  const L = lay.raw.length - 1;
  set(SLOT.L, L);
  set(SLOT.ACTKIND, activation === 'tanh' ? 1 : 0);
  set(SLOT.UNITS, lay.raw[L] - 1);
  set(SLOT.PARAMS, lay.params);
  set(SLOT.GRADS, lay.grads);
  set(SLOT.MOM1, lay.mom1);
  set(SLOT.MOM2, lay.mom2);
  set(SLOT.TOTAL, lay.total);
  set(SLOT.DZA, lay.dzA);
  set(SLOT.DZB, lay.dzB);
  set(SLOT.WT, lay.wt);
  set(SLOT.LIST, lay.list);
  set(SLOT.LCNT, lay.lcnt);
  set(SLOT.LCAP, lay.lcap);
  set(SLOT.MASKS, lay.masks);
  set(SLOT.ACTIONS, lay.actions);
  set(SLOT.OLDLOGP, lay.oldLogp);
  set(SLOT.ADV, lay.adv);
  set(SLOT.RET, lay.ret);
  set(SLOT.STATS, lay.stats);
  set(SLOT.SX, lay.sx);
  set(SLOT.SMASK, lay.smask);
  set(SLOT.SACT, lay.sact);
  set(SLOT.SLOGP, lay.slogp);
  set(SLOT.SADV, lay.sadv);
  set(SLOT.SRET, lay.sret);
  set(SLOT.ORDER, lay.order);
  set(SLOT.INSIZE, lay.raw[0]);
  set(SLOT.OUT, lay.out);
  set(SLOT.NEEDED, lay.needed);
  set(SLOT.PROBS, lay.probs);
  lay.width.forEach((w, k) => set(SLOT.WIDTH + k, w));
  lay.raw.forEach((w, k) => set(SLOT.RAW + k, w));
  lay.act.forEach((p, k) => set(SLOT.ACT + k, p));
  lay.offW.forEach((p, l) => set(SLOT.OFFW + l, p));
  lay.offB.forEach((p, l) => set(SLOT.OFFB + l, p));
}
