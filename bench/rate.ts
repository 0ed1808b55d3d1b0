/** Timing helper of the training benches: rates of a step function on a shared machine. */
import { cpus, loadavg } from 'node:os';

/** A rate: best timed window (wall clock) and over all windows per CPU-second of this process. */
export interface Rate {
  wall: number;
  cpu: number;
}

/**
 * Runs `step` in six windows for about `seconds` (after three warm-up calls); the best
 * window's rate (wall clock, so other load on the machine hurts least) and the overall rate
 * per CPU-second of the process. `sync` waits for queued device work at window ends.
 */
export function measure(step: () => void, seconds: number, sync: () => void = () => {}): Rate {
  for (let i = 0; i < 3; i++) step();
  sync();
  const windows = 6;
  let best = 0;
  let steps = 0;
  const cpu0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    let n = 0;
    const wEnd = t0 + (seconds * 1000) / windows;
    do {
      step();
      n++;
    } while (performance.now() < wEnd);
    sync();
    best = Math.max(best, n / ((performance.now() - t0) / 1000));
    steps += n;
  }
  const c = process.cpuUsage(cpu0);
  return { wall: best, cpu: steps / ((c.user + c.system) / 1e6) };
}

/** {@link measure} for an asynchronous step. */
export async function measureAsync(step: () => Promise<void>, seconds: number): Promise<Rate> {
  for (let i = 0; i < 2; i++) await step();
  const windows = 6;
  let best = 0;
  let steps = 0;
  const cpu0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    let n = 0;
    const wEnd = t0 + (seconds * 1000) / windows;
    do {
      await step();
      n++;
    } while (performance.now() < wEnd);
    best = Math.max(best, n / ((performance.now() - t0) / 1000));
    steps += n;
  }
  const c = process.cpuUsage(cpu0);
  return { wall: best, cpu: steps / ((c.user + c.system) / 1e6) };
}

/** The 1-minute load average and the core count, for the note under a table. */
export function loadNote(): string {
  return `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`;
}
