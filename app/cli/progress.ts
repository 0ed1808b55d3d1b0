import cliProgress from 'cli-progress';

/** Progress of long work: a bar on a TTY, a line every `everyMs` otherwise. */
export interface Progress {
  tick(n?: number, note?: string): void;
  /** Prints a line of its own on stderr: above the bar on a TTY (the bar is redrawn below it), never onto it. */
  log(line: string): void;
  stop(): void;
}

/** Creates a progress display on stderr (stdout stays clean for --json). Silent when `total` is tiny. */
export function createProgress(label: string, total: number, options: { everyMs?: number; quiet?: boolean } = {}): Progress {
  if (options.quiet || total < 2) return { tick() {}, log: (line) => void process.stderr.write(`${line}\n`), stop() {} };
  let done = 0;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {note}`, stream: process.stderr, hideCursor: true, forceRedraw: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { note: '' });
    return {
      tick(n = 1, note = '') {
        done += n;
        bar.update(done, { note });
      },
      log(line) {
        process.stderr.write(`\r\x1b[2K${line}\n`); // clears the bar's line, writes, and the bar comes back below
        bar.render(); // forceRedraw: drawn again even though its text did not change
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
    log: (line) => void process.stderr.write(`${line}\n`),
    stop() {},
  };
}
