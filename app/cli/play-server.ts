/**
 * The server `arena play` and `arena league run` start when a seat is remote or human: the web
 * page and spectator sockets plus the `/play` namespace, on the command's bus. Registers the
 * `remote` and `human` agent kinds and hands out each new seat's token once: printed (a human's
 * page URL, a bot's token) on stderr, or written to a `--tokens` file (mode 0600) instead.
 */
import { writeFileSync } from 'node:fs';
import type { EventBus } from '../../src/bus/event-bus';
import { formatAgentRef, parseAgentRef, withDefaultOptions } from '../../src/core/agent-ref';
import type { Registry } from '../../src/core/registry';
import { isPlaySpec, remoteAgentFactories, type IssuedSeat } from '../server/play/remote-agent';
import { startServer, type ArenaServer } from '../server/start-server';
import type { Store } from '../../src/store/store';
import { UsageError } from './options';

export interface PlayServerArgs {
  port: number;
  host: string;
  /** Write tokens here instead of printing them. */
  tokens?: string;
  reconnectMs?: number;
}

/** Whether any of the agent specs needs the play server. */
export function needsPlayServer(specs: readonly string[]): boolean {
  return specs.some(isPlaySpec);
}

/** Starts the server with /play and registers the seat kinds; the returned server is closed by the caller. */
export async function startPlayServer(registry: Registry, bus: EventBus, args: PlayServerArgs, store?: Store): Promise<ArenaServer> {
  if (args.port > 65535) throw new UsageError(`--port: expected 0-65535, got ${args.port}`);
  let server: ArenaServer;
  try {
    server = await startServer({ bus, store, port: args.port, host: args.host, play: { reconnectMs: args.reconnectMs } });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${args.port} is already in use; pick another with --port (0 = any free port)`);
    if (code === 'EACCES') throw new UsageError(`--port: not allowed to listen on ${args.port}`);
    throw e;
  }
  const base = server.url.replace(/\/$/, '');
  const issued: IssuedSeat[] = [];
  const onIssue = (seat: IssuedSeat) => {
    issued.push(seat);
    if (args.tokens) {
      const data: Record<string, { kind: string; url: string; token: string; page?: string }> = {};
      for (const s of issued) data[s.label] = { kind: s.kind, url: base, token: s.token, ...(s.kind === 'human' ? { page: `${base}/#/play/${s.token}` } : {}) };
      try {
        writeFileSync(args.tokens, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
      } catch (e) {
        throw new UsageError(`--tokens: cannot write ${args.tokens} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      process.stderr.write(`arena: ${seat.kind} seat "${seat.label}": token written to ${args.tokens}\n`);
    } else if (seat.kind === 'human') {
      process.stderr.write(`arena: human seat "${seat.label}": play at ${base}/#/play/${seat.token}\n`);
    } else {
      process.stderr.write(`arena: remote seat "${seat.label}": connect to ${base}/play with token ${seat.token}\n`);
    }
  };
  for (const f of remoteAgentFactories(server.play!, onIssue)) registry.registerAgent(f);
  return server;
}

/** `human` / `remote` without a name become `human:{"name":"<name>"}`: stable slot names (seat-0, a league player's id). */
export function nameSeatSpec(spec: string, name: string): string {
  if (!isPlaySpec(spec)) return spec;
  const ref = parseAgentRef(spec);
  return ref.options ? spec : formatAgentRef(withDefaultOptions(ref, { name }));
}
