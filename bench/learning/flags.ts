/** `--name=value` flags of the learning bench's experiments (payoff, countdown-curriculum). */

/** The value of `--name=value` on the command line, or undefined. */
export const arg = (name: string): string | undefined => process.argv.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3);

/** A positive integer flag, `dflt` when absent; a one-line error naming the flag otherwise. */
export const num = (name: string, dflt: number): number => {
  const v = arg(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a positive integer, got "${v}"`);
  return n;
};

/** A real-number flag in [lo, hi], `dflt` when absent; a one-line error naming the flag otherwise. */
export const real = (name: string, dflt: number, lo: number, hi: number): number => {
  const v = arg(name);
  if (v === undefined) return dflt;
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || x < lo || x > hi) throw new Error(`--${name}: expected a number in [${lo}, ${hi}], got "${v}"`);
  return x;
};
