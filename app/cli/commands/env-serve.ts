import type { Registry } from '../../../src/core/registry';
import { parseFaultPolicy } from '../../../src/match/fault-policy';
import { SeatAgentError, seatAgents } from '../../../src/match/seat-agents';
import { startEnvServer, type EnvServer } from '../../server/env-serve/env-server';
import { envAndParams, splitAgentList, UsageError } from '../options';
import { stopOnSignals } from '../stop-signal';

export interface EnvServeArgs {
  agents: string;
  clientAgents?: string;
  params?: string;
  seat?: number;
  role?: string;
  port: number;
  host: string;
  maxSessions: number;
  idleTimeout: number;
  wsIdleTimeout?: number;
  seed: number;
  deadline?: number;
  faults?: string;
}

/**
 * `arena env-serve <env> [--agents a,b] [--client-agents c,d] [--role R | --seat N] [--port 8000]`:
 * serves the env to trainers outside the process with OpenEnv's HTTP + WebSocket interface
 * (docs/env-server.md). Clients may choose only the agents of `--agents` and `--client-agents`
 * (docs/trust.md). The first Ctrl-C / SIGTERM closes every session and connection and returns
 * 0; a second one while closing exits 130 at once.
 */
export async function envServeCommand(registry: Registry, ref: string, args: EnvServeArgs, options: { onListening?: (s: EnvServer) => void } = {}): Promise<number> {
  const { env, params } = await envAndParams(registry, ref, args.params);
  if (args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  if (args.maxSessions < 1) throw new UsageError('--max-sessions: must be at least 1');
  if (args.idleTimeout < 1) throw new UsageError('--idle-timeout: must be at least 1 second');
  const seats = env.seats(env.init(params, args.seed));
  if (args.role !== undefined && !seats.some((s) => s.role === args.role)) throw new UsageError(`--role: "${args.role}" is not a role of any seat (${seats.map((s) => s.role).join(', ')})`);
  if (args.seat !== undefined && args.seat >= seats.length) throw new UsageError(`--seat: ${env.meta.id} has ${seats.length} seats (0-${seats.length - 1})`);
  const agents = splitAgentList(args.agents);
  if (seats.length > 1 && agents.length !== 1 && agents.length !== seats.length) {
    throw new UsageError(`--agents: give 1 agent (for every other seat) or ${seats.length} (one per seat), not ${agents.length}`);
  }
  const clientAgents = args.clientAgents === undefined ? [] : splitAgentList(args.clientAgents);
  if (args.clientAgents !== undefined && !clientAgents.length) throw new UsageError('--client-agents: give at least one agent reference (e.g. --client-agents random,fair-split)');
  // Check the references once now, so a typo is a usage error rather than a 422 on every reset.
  try {
    await seatAgents({ registry, env, params, seats: [...new Set([...agents, ...clientAgents])], seedOf: () => 0 });
  } catch (e) {
    throw e instanceof SeatAgentError ? e.cause : e;
  }
  if (args.wsIdleTimeout !== undefined && args.wsIdleTimeout < 1) throw new UsageError('--ws-idle-timeout: must be at least 1 second (leave it out to keep WebSocket sessions while connected)');
  let server: EnvServer;
  try {
    server = await startEnvServer({
      env,
      params,
      registry,
      agents,
      clientAgents,
      seat: args.seat,
      role: args.role,
      port: args.port,
      host: args.host,
      maxSessions: args.maxSessions,
      idleMs: args.idleTimeout * 1000,
      wsIdleMs: args.wsIdleTimeout === undefined ? 0 : args.wsIdleTimeout * 1000,
      seed: args.seed,
      deadlineMs: args.deadline,
      faultPolicy: args.faults ? parseFaultPolicy(args.faults) : undefined,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${args.port} is already in use; pick another with --port (0 = any free port)`);
    if (code === 'EACCES') throw new UsageError(`--port: not allowed to listen on ${args.port}`);
    throw e;
  }
  const others = [...new Set([...agents, ...clientAgents])];
  // listening for Ctrl-C before the ready line: a signal sent on seeing it must find the command stoppable
  const stop = stopOnSignals('closing the sessions');
  process.stdout.write(`arena: serving ${env.meta.id} at ${server.url} (OpenEnv: POST /reset, POST /step, GET /state, WebSocket /ws; other seats: ${agents.join(', ')}; clients may choose: ${others.join(', ')})\n`);
  try {
    options.onListening?.(server);
    await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener('abort', () => resolve(), { once: true })));
    const closed = await server.close();
    process.stdout.write(`arena: closed ${closed} session${closed === 1 ? '' : 's'}; stopped\n`);
  } finally {
    stop.dispose();
  }
  return 0;
}
