/**
 * `--allow-play`, `--play-limit` and `--play-idle` of `arena demo` and `arena serve`: whether
 * visitors may start games with a human seat from the page's lobby, how many at once, and how
 * long one decision may wait before the seat forfeits (app/server/play/lobby-play.ts).
 */
import type { Registry } from '../../src/core/registry';
import type { LobbyPlayOptions } from '../server/play/lobby-play';
import { UsageError } from './options';

/** The lobby-play options as commander parses them. */
export interface LobbyPlayArgs {
  allowPlay?: boolean;
  /** Games at once (default 4). */
  playLimit?: number;
  /** Seconds one decision may wait (default 120). */
  playIdle?: number;
}

/** Defaults of the options (also printed in `--help`). */
export const LOBBY_PLAY_DEFAULTS = { limit: 4, idleSeconds: 120 } as const;

/** The server's `lobbyPlay` option (undefined without `--allow-play`); a usage error names a bad option. */
export function lobbyPlayOptions(registry: Registry, args: LobbyPlayArgs): LobbyPlayOptions | undefined {
  const limit = args.playLimit ?? LOBBY_PLAY_DEFAULTS.limit;
  const idle = args.playIdle ?? LOBBY_PLAY_DEFAULTS.idleSeconds;
  if (!args.allowPlay) {
    if (args.playLimit !== undefined) throw new UsageError('--play-limit: only with --allow-play');
    if (args.playIdle !== undefined) throw new UsageError('--play-idle: only with --allow-play');
    return undefined;
  }
  if (limit < 1) throw new UsageError(`--play-limit: expected at least 1 game at once, got ${limit}`);
  if (idle < 1) throw new UsageError(`--play-idle: expected at least 1 second, got ${idle}`);
  return { registry, maxMatches: limit, idleMs: idle * 1000 };
}

/** The line the commands print when play is on. */
export function lobbyPlayNote(o: LobbyPlayOptions | undefined): string {
  return o ? `  visitors may play from the lobby: at most ${o.maxMatches} game${o.maxMatches === 1 ? '' : 's'} at once, ${(o.idleMs ?? 0) / 1000} s per decision before a seat forfeits\n` : '';
}
