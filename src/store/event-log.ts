/**
 * A match's event log as one value (issue 27): the JSON array of its events, deflate-compressed
 * (raw deflate, level 1: ~8x smaller for a Werewolf log, fast to make) — or, for a small log
 * (JSON of at most {@link RAW_MAX} characters: a rock-paper-scissors match's ~2.5 KB), the JSON
 * itself behind the one byte {@link RAW_MARK}: deflating a small log costs more than the rest of
 * a cheap match's bookkeeping (zlib's set-up per call) and saves ~2 KB. No deflate stream starts
 * with that byte (its block type bits, 11, are reserved in RFC 1951), so every log written before
 * the raw form existed — all deflated — reads as it did. The store keeps a log as one row per
 * match; a worker packs it where the match was played and returns it (base64 in its job's JSON
 * result), so the scheduler neither parses nor re-serialises the events of the matches it
 * records. Packing checks that the events are the match's in increasing seq order; unpacking
 * checks it again, so a damaged or foreign log is named, never served as the match's.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { MatchEvent } from '../core/events';

/** The first byte of a log stored raw: the UTF-8 JSON array follows (a byte no raw deflate stream starts with). */
export const RAW_MARK = 0xff;

/** The longest JSON (in characters) of a log packed raw; a longer one is deflated. */
export const RAW_MAX = 4096;

/** A packed event log: how many events, and the packed bytes (raw: {@link RAW_MARK} and the JSON array; else the deflated JSON array). */
export interface PackedEventLog {
  readonly count: number;
  readonly packed: Buffer;
}

/**
 * A packed log in a JSON message (a worker's job result): the packed bytes as base64 in
 * `packed`. A worker of the version before raw logs sent `deflated` (the deflated bytes as
 * base64), still accepted.
 */
export type EventLogMessage = { count: number; packed: string } | { count: number; deflated: string };

/** An event log that is not its match's in increasing seq order, or a packed log that cannot be read. */
export class EventLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventLogError';
  }
}

/** Throws an {@link EventLogError} unless every event is `matchId`'s and their seqs increase (what the old per-event key refused). */
export function checkEventLog(matchId: string, events: readonly MatchEvent[]): void {
  events.forEach((e, i) => {
    if (e?.matchId !== matchId) throw new EventLogError(`match ${matchId}: its event log holds an event of match ${String(e?.matchId)}`);
    if (typeof e.seq !== 'number' || !(i === 0 || e.seq > events[i - 1].seq)) throw new EventLogError(`match ${matchId}: its event log is not in seq order (seq ${String(e.seq)} at position ${i})`);
  });
}

/** Packs `matchId`'s events (checked first: see {@link checkEventLog}). */
export function packEventLog(matchId: string, events: readonly MatchEvent[]): PackedEventLog {
  checkEventLog(matchId, events);
  const json = JSON.stringify(events);
  if (json.length > RAW_MAX) return { count: events.length, packed: deflateRawSync(json, { level: 1 }) };
  const packed = Buffer.allocUnsafe(1 + Buffer.byteLength(json));
  packed[0] = RAW_MARK;
  packed.write(json, 1);
  return { count: events.length, packed };
}

/** The events of `matchId`'s packed log (raw or deflated), checked; an {@link EventLogError} names a log that is damaged or not the match's. */
export function unpackEventLog(matchId: string, packed: Buffer): MatchEvent[] {
  let events: unknown;
  try {
    events = JSON.parse(packed[0] === RAW_MARK ? packed.toString('utf8', 1) : inflateRawSync(packed).toString('utf8'));
  } catch (e) {
    throw new EventLogError(`match ${matchId}: its stored event log is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!Array.isArray(events)) throw new EventLogError(`match ${matchId}: its stored event log is damaged (not a list of events)`);
  checkEventLog(matchId, events as MatchEvent[]);
  return events as MatchEvent[];
}

/** A packed log as a JSON message. */
export function eventLogMessage(log: PackedEventLog): EventLogMessage {
  return { count: log.count, packed: log.packed.toString('base64') };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The packed log of a JSON message (from a worker: `packed`, or an older worker's `deflated` —
 * deflated bytes are a packed log as they are); an {@link EventLogError} when it is not one.
 */
export function eventLogOfMessage(m: unknown): PackedEventLog {
  const { count, packed, deflated } = (typeof m === 'object' && m !== null ? m : {}) as Partial<Record<'count' | 'packed' | 'deflated', unknown>>;
  const bytes = packed ?? deflated;
  if (!Number.isSafeInteger(count) || (count as number) < 0 || typeof bytes !== 'string' || !BASE64.test(bytes)) {
    throw new EventLogError('an event log in a result is not {count, packed (base64)}');
  }
  return { count: count as number, packed: Buffer.from(bytes, 'base64') };
}
