import type { TokenBucket } from './rate-limiter';

/** The two refusals admission can answer with; both socket protocols have these error codes. */
export type AdmissionRefusal = 'rate-limited' | 'too-large';

/** The part of a socket admission needs: cutting off a client that floods. */
export interface Disconnectable {
  disconnect(close: boolean): unknown;
}

/**
 * Admits one message from a socket client before anything reads it: the rate limit first, then
 * the size of its arguments as JSON. Shared by the spectator hub and the play hub so that both
 * protocols refuse floods and oversized messages the same way.
 *
 * - `bucket` null: the message costs no token (the play hub's credit for an expected `act`); its
 *   size is still checked.
 * - Over the rate limit: an abusive client (see {@link TokenBucket.abusive}) is disconnected;
 *   otherwise the refusal is answered when the message carries an ack, or at most once a second
 *   as an `error` event, so a flood is not answered by a flood.
 * - Arguments that cannot be serialized (cycles, BigInt) count as too large.
 *
 * Returns true when the caller may handle the message; false when it was refused (the refusal
 * already reported through `fail`, or the client cut off).
 */
export function admitMessage(
  socket: Disconnectable,
  bucket: TokenBucket | null,
  args: readonly unknown[],
  maxBytes: number,
  acked: boolean,
  fail: (code: AdmissionRefusal, message: string) => void,
): boolean {
  if (bucket && !bucket.take()) {
    if (bucket.abusive) socket.disconnect(true);
    else if (acked || bucket.shouldNotify()) fail('rate-limited', 'too many messages; slow down');
    return false;
  }
  if (jsonSize(args) > maxBytes) {
    fail('too-large', `message larger than ${maxBytes} bytes`);
    return false;
  }
  return true;
}

/** Length of `value` as JSON; Infinity when it cannot be serialized. */
function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}
