/**
 * Where `arena rollouts` writes: JSON lines (a file or stdout) or verl's Parquet file
 * (src/rollouts/verl.ts). Both take whole groups as they complete and are closed at the end (or
 * on Ctrl-C), so a stopped run leaves a valid file of whole groups.
 */
import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import type { RolloutRecord } from '../../src/rollouts/collect';
import { openVerlFile, verlRow } from '../../src/rollouts/verl';
import { UsageError } from './options';

/** The file formats of `--format`. */
export const ROLLOUT_FORMATS = ['jsonl', 'verl'] as const;
export type RolloutFormat = (typeof ROLLOUT_FORMATS)[number];

/** An open output. */
export interface RolloutSink {
  write(records: readonly RolloutRecord[]): Promise<void>;
  /** Completes the file; `discard` removes it (a refused request wrote nothing). */
  close(discard?: boolean): Promise<void>;
}

function cannotWrite(out: string, e: unknown): UsageError {
  return new UsageError(`--out: cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
}

/** Opens `out` for `format` (`-`: stdout, JSON lines only); a one-line usage error when it cannot. */
export async function openRolloutSink(format: string, out: string, envId: string, paramsJson: string): Promise<RolloutSink> {
  if (!(ROLLOUT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: "${format}" is not one of ${ROLLOUT_FORMATS.join(', ')}`);
  if (format === 'verl') {
    if (out === '-') throw new UsageError('--out: --format verl writes a Parquet file; give a file name (stdout takes JSON lines only)');
    let file;
    try {
      file = await openVerlFile(out);
    } catch (e) {
      throw cannotWrite(out, e);
    }
    let index = 0;
    return {
      write: (records) => file.write(records.map((r) => verlRow(r, envId, paramsJson, index++))),
      async close(discard) {
        file.close();
        if (discard) rmSync(out, { force: true });
      },
    };
  }
  if (out === '-') return { write: (records) => writeText(process.stdout, lines(records)), close: async () => {} };
  const stream = createWriteStream(out);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e) => reject(cannotWrite(out, e)));
  });
  return {
    write: (records) => writeText(stream, lines(records)),
    async close(discard) {
      await new Promise<void>((resolve) => stream.end(resolve));
      if (discard) rmSync(out, { force: true });
    },
  };
}

function lines(records: readonly RolloutRecord[]): string {
  return records.length ? records.map((r) => JSON.stringify(r)).join('\n') + '\n' : '';
}

function writeText(stream: WriteStream | NodeJS.WriteStream, text: string): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(text, (e) => (e ? reject(e) : resolve()));
  });
}
