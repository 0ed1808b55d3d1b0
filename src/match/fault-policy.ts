
/**
 * What the runner does when a seat answers with an illegal action, throws, or misses its
 * deadline: retry up to `retries` more times, then forfeit the match for that seat or play
 * a default action (the env's `defaultAction`, else the first legal action).
 */
export interface FaultPolicy {
  retries: number;
  then: 'forfeit' | 'default';
}

export const DEFAULT_FAULT_POLICY: FaultPolicy = { retries: 0, then: 'forfeit' };

export type { FaultRecord } from '../core/events';

/** A fault policy text that does not parse; the message names the bad part. */
export class FaultPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultPolicyError';
  }
}

/** Parses "retry:2,forfeit" / "default" / "forfeit" (CLI form); throws a FaultPolicyError naming the bad part. */
export function parseFaultPolicy(text: string): FaultPolicy {
  const policy: FaultPolicy = { ...DEFAULT_FAULT_POLICY };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^retry:(\d+)$/.exec(part);
    if (m) policy.retries = Number(m[1]);
    else if (part === 'forfeit' || part === 'default') policy.then = part;
    else throw new FaultPolicyError(`fault policy: "${part.length > 40 ? `${part.slice(0, 40)}…` : part}" is not one of retry:N, forfeit, default`);
  }
  return policy;
}
