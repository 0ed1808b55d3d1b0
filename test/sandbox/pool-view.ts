/**
 * A view into a sandbox's one-slot JS pool, for the tests of pipelined runs and of the pool's
 * reading of its worker's answers (not a test file itself): the programs whose answers identify
 * them, the slot's worker and units, and a wait on the event loop.
 */
import type { Sandbox } from '../../src/sandbox';
import type { CodeRunRequest } from '../../src/core/sandbox';

/** Program i computes x * i + i: an answer given to the wrong run would not match. */
export const own = (i: number): CodeRunRequest => ({ language: 'js', program: `function f(x){ return x * ${i} + ${i} }`, entry: 'f', tests: [{ input: [i], expected: i * i + i }] });

/** A program that never ends, under a per-test limit of `timeMs`. */
export const loop = (timeMs: number): CodeRunRequest => ({ language: 'js', program: 'function f(){ for (;;) {} }', entry: 'f', tests: [{ input: [] }], limits: { timeMs } });

/** The parts of a slot (pool.ts) the tests read or drive. */
export interface SlotView {
  worker?: { kill(sig: string): void; pid?: number; on(event: 'message', f: (m: unknown) => void): void; emit(event: 'message', m: unknown): boolean };
  inflight: unknown[];
  units: { jobs: { id: number }[]; batch: boolean }[];
}

/** The first (with `concurrency: 1`, the only) slot of `sb`'s pool. */
export const slotOf = (sb: Sandbox): SlotView => (sb.pool as unknown as { slots: SlotView[] }).slots[0];

/** Resolves once `done()` holds (polled on the event loop, never a fixed sleep). */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}
