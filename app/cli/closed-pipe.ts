/**
 * A reader that goes away (`arena league matches | head`) closes the pipe under stdout; the next
 * write fails with EPIPE. Every command then exits quietly (exit 0, no stack trace) instead of
 * crashing on the unhandled stream error: the reader has all it wanted.
 */

/** Exits through `exit` when `stream` reports EPIPE; any other stream error is rethrown unchanged. */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WritableStream, exit: (code: number) => void = (c) => process.exit(c)): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') exit(0);
    else throw e;
  });
}
