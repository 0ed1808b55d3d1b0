import { EventBus } from '../../../src/bus/event-bus';
import type { Registry } from '../../../src/core/registry';
import { parseViewer } from '../../../src/core/visibility';
import { FaultPolicyError, parseFaultPolicy, type FaultPolicy } from '../../../src/match/fault-policy';
import { runMatch } from '../../../src/match/runner';
import { SeriesTally } from '../../../src/match/summary';
import { addReports, formatUsage, type UsageTotals } from '../../../src/match/usage';
import { jsonText } from '../json-output';
import { watchMatches } from '../watch';
import { agentsForSeats, envAndParams, oneLine, splitAgentList, UsageError } from '../options';
import { nameSeatSpec, needsPlayServer, startPlayServer } from '../play-server';
import type { ArenaServer } from '../../server/start-server';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';
import { EventLoopTurn } from '../../../src/core/event-loop';
import { deadSeatLine, SeatFailures } from '../seat-failures';

export interface PlayArgs {
  /** Port and interface of the server started for remote and human seats. */
  port?: number;
  host?: string;
  tokens?: string;
  agents: string;
  params?: string;
  seed: number;
  episodes: number;
  json?: boolean;
  deadline?: number;
  faults?: string;
  /** Print the match's events as they happen, seen by this viewer ("public", "omniscient", seat). */
  watch?: string;
}

/** `--faults`: the fault policy, or a usage error naming the option. */
function parseFaultOption(text: string): FaultPolicy {
  try {
    return parseFaultPolicy(text);
  } catch (e) {
    if (e instanceof FaultPolicyError) throw new UsageError(`--faults: ${e.message.replace(/^fault policy: /, '')}`);
    throw e;
  }
}

/** `arena play <env> --agents ...`: plays episodes and prints one line per episode plus a summary. */
export async function playCommand(registry: Registry, ref: string, args: PlayArgs): Promise<number> {
  const { env, params } = await envAndParams(registry, ref, args.params);
  const seats = env.seats(env.init(params, args.seed)).length;
  const faultPolicy = args.faults ? parseFaultOption(args.faults) : undefined;
  let viewer: ReturnType<typeof parseViewer> = null;
  if (args.watch) {
    viewer = parseViewer(args.watch);
    if (viewer === null) throw new UsageError(`--watch: expected public, omniscient or a seat number, got "${oneLine(args.watch, 40)}"`);
    if (typeof viewer === 'number' && viewer >= seats) throw new UsageError(`--watch: ${env.meta.id} has seats 0-${seats - 1} here, not ${viewer}`);
  }
  let specs = splitAgentList(args.agents);
  const bus = new EventBus();
  let server: ArenaServer | null = null;
  if (needsPlayServer(specs)) {
    // Remote and human seats: serve /play (and the page) on this bus; one named slot per seat.
    if (specs.length === 1) specs = Array.from({ length: seats }, () => specs[0]);
    specs = specs.map((spec, seat) => nameSeatSpec(spec, `seat-${seat}`));
    server = await startPlayServer(registry, bus, { port: args.port ?? 0, host: args.host ?? '127.0.0.1', tokens: args.tokens });
  }
  let agents;
  try {
    agents = await agentsForSeats(registry, env, params, specs, seats, args.seed);
  } catch (e) {
    await server?.close();
    throw e;
  }
  // On stdout with the episode lines, so a pipe keeps them in order; --json keeps stdout JSON.
  const watching = viewer === null ? null : watchMatches(bus, env, viewer, (line) => (args.json ? process.stderr : process.stdout).write(line + '\n'));
  const progress = createProgress('play', args.episodes, { quiet: !!args.watch });
  const tally = new SeriesTally(env); // constant memory: play --episodes 1e12 stays flat
  const usage = new Map<string, UsageTotals>();
  const failures = new SeatFailures();
  const stop = stopOnSignals('stopping after the current episode');
  const turn = new EventLoopTurn();
  let lastMatch: string | null = null;
  try {
    for (let k = 0; k < args.episodes; k++) {
      await turn.maybe(); // lets Ctrl-C in between synchronous episodes
      if (stop.signal.aborted) break;
      const seed = args.seed + k;
      const r = await runMatch({ env, params, seed, agents, bus, deadlineMs: args.deadline, faultPolicy, signal: stop.signal, effects: registry.effects(), onDecision: failures.onDecision });
      await watching?.drained(); // the watched view's last phase before the episode's line
      if (r.code === 'aborted' && stop.signal.aborted) break;
      lastMatch = r.matchId;
      tally.add(r);
      failures.add(r);
      addReports(usage, r.reports, (seat) => `seat ${seat} ${r.agents[seat]}`);
      if (args.json) {
        const line = {
          episode: k,
          seed,
          agents: r.agents,
          returns: r.returns,
          length: r.length,
          outcome: r.outcome,
          code: r.code,
          ...(r.faults.length ? { faults: r.faults } : {}),
          ...(r.reports ? { reports: r.reports } : {}),
          summary: r.summary,
        };
        process.stdout.write(jsonText(line) + '\n');
      } else if (args.episodes <= 20) {
        const why = r.code === 'forfeit' && r.faults.length ? `: ${faultText(r.faults[r.faults.length - 1], r.agents)}` : '';
        process.stdout.write(`episode ${k} seed ${seed}: ${r.outcome} returns ${jsonText(r.returns)} in ${r.length} steps${r.code === 'ok' ? '' : ` (${r.code}${why})`}\n`);
      }
      progress.tick();
    }
  } catch (e) {
    await server?.close();
    throw e;
  } finally {
    progress.stop();
    stop.dispose();
    watching?.stop();
  }
  const summary = tally.summary();
  if (args.json) process.stdout.write(jsonText({ summary }) + '\n');
  else {
    process.stdout.write(`${env.meta.id}: ${summary.episodes} episodes, mean returns ${summary.meanReturns.map((x) => x.toFixed(3)).join(' / ')}, mean length ${summary.meanLength.toFixed(1)}\n`);
    process.stdout.write(`outcomes: ${Object.entries(summary.outcomes).map(([k, v]) => `${k || '(none)'} ${v}`).join(', ')}${summary.faults ? `; faults ${summary.faults}` : ''}\n`);
    if (summary.env) process.stdout.write(`${jsonText(summary.env)}\n`);
    for (const line of formatUsage(usage)) process.stdout.write(`usage ${line}\n`);
  }
  // A seat that never answered measured nothing: say why (also with --json) and fail.
  const dead = failures.dead();
  for (const d of dead) process.stderr.write(`arena: ${deadSeatLine(d)}\n`);
  if (server) await keepServing(server, stop.signal.aborted ? null : lastMatch);
  return dead.length ? 1 : 0;
}

/** A fault in the episode line's words: who, and why. */
function faultText(f: { seat: number; reason: string }, agents: readonly string[]): string {
  return `seat ${f.seat} ${agents[f.seat] ?? ''}: ${oneLine(f.reason, 160)}`.replace(/ {2}/g, ' ');
}

/**
 * After the games of a run with a human seat, the page stays up until Ctrl-C, so the seat's
 * "replay" and "back to the lobby" links keep working (the games are in the server's memory,
 * nothing is stored); said on stderr. Runs with bots only, or stopped by Ctrl-C, close at once.
 */
async function keepServing(server: ArenaServer, lastMatch: string | null): Promise<void> {
  if (lastMatch === null || !server.play?.slotsInfo().some((s) => s.kind === 'human')) return server.close();
  const base = server.url.replace(/\/$/, '');
  // listening before saying so: a Ctrl-C that follows the line at once must find the command stoppable
  const stop = stopOnSignals('closing the server');
  process.stderr.write(`arena: games over; the page keeps serving them until Ctrl-C: replay at ${base}/#/match/${encodeURIComponent(lastMatch)}, lobby at ${base}/\n`);
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  stop.dispose();
  await server.close();
}
