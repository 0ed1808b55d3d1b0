import { EventEmitter } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import { heartbeat } from '../../src/core/heartbeat';

const stops = new EventEmitter();
let relayed = false;

/**
 * In the CLI's worker thread: signals reach the main thread only, and the supervisor relays
 * the first Ctrl-C / SIGTERM as a `{type: "stop"}` message on `port` (it handles a second one
 * itself, by ending the worker). The port does not keep the worker alive.
 */
export function relayStopsFrom(port: MessagePort): void {
  relayed = true;
  port.on('message', (m: unknown) => {
    if (m && typeof m === 'object' && (m as { type?: unknown }).type === 'stop') stops.emit('stop');
  });
  port.unref();
}

/**
 * Ctrl-C / SIGTERM handling for long commands: the first signal aborts the returned signal
 * (the work stops cleanly after what it is doing, e.g. the current match; long loops yield to
 * the event loop so that the signal gets in); a second one exits at once with code 130. Call
 * `dispose()` when the work is over. While one is active the CLI's supervisor relays signals
 * instead of ending the command.
 */
export function stopOnSignals(message: string): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onStop = () => {
    if (ac.signal.aborted) {
      if (!relayed) process.exit(130);
      return;
    }
    // the supervisor prints the message itself (at once, even while this thread is busy)
    if (!relayed) process.stderr.write(`\n${message} (Ctrl-C again to quit now)...\n`);
    ac.abort();
  };
  stops.on('stop', onStop);
  if (!relayed) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  heartbeat()?.stoppable(1);
  heartbeat()?.context({ stopping: message });
  let disposed = false;
  return {
    signal: ac.signal,
    dispose() {
      if (disposed) return;
      disposed = true;
      stops.off('stop', onStop);
      if (!relayed) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      heartbeat()?.stoppable(-1);
    },
  };
}

function onSignal(): void {
  stops.emit('stop');
}
