import cliProgress from 'cli-progress';

/** Progress of long work: a bar on a TTY, a line every `everyMs` otherwise. */
export interface Progress {
  tick(n?: number, note?: string): void;
  stop(): void;
}

/** Creates a progress display on stderr (stdout stays clean for --json). Silent when `total` is tiny. */
export function createProgress(label: string, total: number, options: { everyMs?: number; quiet?: boolean } = {}): Progress {
  if (options.quiet || total < 2) return { tick() {}, stop() {} };
  let done = 0;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {note}`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { note: '' });
    return {
      tick(n = 1, note = '') {
        done += n;
        bar.update(done, { note });
      },
      stop() {
        bar.stop();
      },
    };
  }
  const every = options.everyMs ?? 10_000;
  const started = Date.now();
  let last = started;
  return {
    tick(n = 1, note = '') {
      done += n;
      const now = Date.now();
      if (now - last >= every) {
        last = now;
        const rate = done / ((now - started) / 1000);
        process.stderr.write(`${label}: ${done}/${total} (${rate.toFixed(1)}/s)${note ? ' ' + note : ''}\n`);
      }
    },
    stop() {},
  };
}
