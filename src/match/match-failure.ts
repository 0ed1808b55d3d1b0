/**
 * An exception that escaped an env member (or an agent's start/end hook) during a match. Agents'
 * `act` failures are faults handled by the fault policy; these end the match, and the message
 * names the env, the member, the match, seed and step.
 */
export class MatchFailureError extends Error {
  constructor(
    readonly env: string,
    /** The member that threw: `step`, `observe`, ... or `agent "x" start` for agent hooks. */
    readonly member: string,
    readonly seed: number,
    readonly step: number,
    readonly matchId: string,
    override readonly cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const short = why.length > 300 ? `${why.slice(0, 300)}…` : why;
    const who = member.startsWith('agent ') ? `${member}()` : `env ${env}: ${member}()`;
    super(`${who} threw at seed ${seed} step ${step} (match ${matchId}): ${short.replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'MatchFailureError';
  }
}
