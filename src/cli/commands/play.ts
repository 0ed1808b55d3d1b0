import { EventBus } from '../../bus/event-bus';
import { teamsFromCreated } from '../../bus/view-filter';
import { isMatchEvent } from '../../core/events';
import type { Registry } from '../../core/registry';
import { parseViewer } from '../../core/visibility';
import { ViewStream } from '../../core/phase-release';
import { TimedRelease } from '../../bus/timed-release';
import type { MatchEvent } from '../../core/events';
import { FaultPolicyError, parseFaultPolicy, type FaultPolicy } from '../../match/fault-policy';
import { runMatch } from '../../match/runner';
import { SeriesTally } from '../../match/summary';
import { addReports, formatUsage, type UsageTotals } from '../../match/usage';
import { formatEvent } from '../format-event';
import { agentsForSeats, envAndParams, oneLine, splitAgentList, UsageError } from '../options';
import { nameSeatSpec, needsPlayServer, startPlayServer } from '../play-server';
import type { ArenaServer } from '../../server/start-server';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';
import { EventLoopTurn } from '../../core/event-loop';

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
  const watch: { release: TimedRelease | null } = { release: null };
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
  if (viewer !== null) {
    const watched = viewer;
    const write = (e: MatchEvent) => (args.json ? process.stderr : process.stdout).write(formatEvent(e) + '\n');
    // One view stream per match: the public view of a hidden-role match prints each phase when it is due (src/core/phase-release.ts).
    bus.events$.subscribe((e) => {
      if (!isMatchEvent(e)) return;
      if (e.type === 'match.created') {
        const teams = teamsFromCreated(e);
        watch.release = new TimedRelease(new ViewStream(watched, teams), (batch) => {
          // On stdout with the episode lines, so a pipe keeps them in order; --json keeps stdout JSON.
          for (const r of batch.items) write(r.event!);
        });
      }
      watch.release?.push(e);
    });
  }
  const progress = createProgress('play', args.episodes, { quiet: !!args.watch });
  const tally = new SeriesTally(env); // constant memory: play --episodes 1e12 stays flat
  const usage = new Map<string, UsageTotals>();
  const stop = stopOnSignals('stopping after the current episode');
  const turn = new EventLoopTurn();
  try {
    for (let k = 0; k < args.episodes; k++) {
      await turn.maybe(); // lets Ctrl-C in between synchronous episodes
      if (stop.signal.aborted) break;
      const seed = args.seed + k;
      const r = await runMatch({ env, params, seed, agents, bus, deadlineMs: args.deadline, faultPolicy, signal: stop.signal, effects: registry.effects() });
      await watch.release?.drained(); // the watched view's last phase before the episode's line
      if (r.code === 'aborted' && stop.signal.aborted) break;
      tally.add(r);
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
        process.stdout.write(JSON.stringify(line) + '\n');
      } else if (args.episodes <= 20) {
        process.stdout.write(`episode ${k} seed ${seed}: ${r.outcome} returns ${JSON.stringify(r.returns)} in ${r.length} steps${r.code === 'ok' ? '' : ` (${r.code})`}\n`);
      }
      progress.tick();
    }
  } finally {
    progress.stop();
    stop.dispose();
    await server?.close();
  }
  const summary = tally.summary();
  if (args.json) process.stdout.write(JSON.stringify({ summary }) + '\n');
  else {
    process.stdout.write(`${env.meta.id}: ${summary.episodes} episodes, mean returns ${summary.meanReturns.map((x) => x.toFixed(3)).join(' / ')}, mean length ${summary.meanLength.toFixed(1)}\n`);
    process.stdout.write(`outcomes: ${Object.entries(summary.outcomes).map(([k, v]) => `${k || '(none)'} ${v}`).join(', ')}${summary.faults ? `; faults ${summary.faults}` : ''}\n`);
    if (summary.env) process.stdout.write(`${JSON.stringify(summary.env)}\n`);
    for (const line of formatUsage(usage)) process.stdout.write(`usage ${line}\n`);
  }
  return 0;
}
