/**
 * Ctrl-C / SIGTERM handling for long commands: the first signal aborts the returned signal
 * (the work stops cleanly after what it is doing, e.g. the current match); a second one exits
 * at once with code 130. Call `dispose()` when the work is over.
 */
export function stopOnSignals(message: string): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = () => {
    if (ac.signal.aborted) process.exit(130);
    process.stderr.write(`\n${message} (Ctrl-C again to quit now)...\n`);
    ac.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
