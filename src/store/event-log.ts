/**
 * A match's event log as one value (issue 27): the JSON array of its events, deflate-compressed
 * (raw deflate, level 1: ~8x smaller for a Werewolf log, fast to make; a log of at most
 * {@link SMALL_LOG} characters — a rock-paper-scissors match's ~2.5 KB — with a 4 KB window and
 * small hash tables: about the same bytes out, since the window still covers the whole log, without
 * zlib's set-up of its 256 KB of default state, which cost a cheap match more than the rest of
 * its bookkeeping; inflate reads every window size, so logs of either kind read alike). The store keeps it as one
 * row per match; a worker packs it where the match was played and returns it (base64 in its
 * job's JSON result), so the scheduler neither parses nor re-serialises the events of the
 * matches it records. Packing checks that the events are the match's in increasing seq order;
 * unpacking checks it again, so a damaged or foreign log is named, never served as the match's.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { MatchEvent } from '../core/events';

/** The longest JSON (in characters, so at most 4 KB of ASCII) of a log deflated with {@link SMALL_OPTIONS}. */
export const SMALL_LOG = 4096;

/** zlib options for a small log: level 1, a 4 KB window (2^12, it covers the whole log) and 4 KB hash tables (memLevel 4 of 9). */
const SMALL_OPTIONS = { level: 1, windowBits: 12, memLevel: 4 } as const;

/** A packed event log: how many events, and the deflated JSON array. */
export interface PackedEventLog {
  readonly count: number;
  readonly deflated: Buffer;
}

/** A packed log in a JSON message (a worker's job result): the deflated bytes as base64. */
export interface EventLogMessage {
  count: number;
  deflated: string;
}

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
  return { count: events.length, deflated: deflateRawSync(json, json.length <= SMALL_LOG ? SMALL_OPTIONS : { level: 1 }) };
}

/** The events of `matchId`'s packed log, checked; an {@link EventLogError} names a log that is damaged or not the match's. */
export function unpackEventLog(matchId: string, deflated: Buffer): MatchEvent[] {
  let events: unknown;
  try {
    events = JSON.parse(inflateRawSync(deflated).toString('utf8'));
  } catch (e) {
    throw new EventLogError(`match ${matchId}: its stored event log is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!Array.isArray(events)) throw new EventLogError(`match ${matchId}: its stored event log is damaged (not a list of events)`);
  checkEventLog(matchId, events as MatchEvent[]);
  return events as MatchEvent[];
}

/** A packed log as a JSON message. */
export function eventLogMessage(log: PackedEventLog): EventLogMessage {
  return { count: log.count, deflated: log.deflated.toString('base64') };
}

/** The packed log of a JSON message (from a worker); an {@link EventLogError} when it is not one. */
export function eventLogOfMessage(m: unknown): PackedEventLog {
  const { count, deflated } = (typeof m === 'object' && m !== null ? m : {}) as Partial<Record<keyof EventLogMessage, unknown>>;
  if (!Number.isSafeInteger(count) || (count as number) < 0 || typeof deflated !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(deflated)) {
    throw new EventLogError('an event log in a result is not {count, deflated (base64)}');
  }
  return { count: count as number, deflated: Buffer.from(deflated, 'base64') };
}
