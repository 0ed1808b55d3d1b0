/** Unknown keys in league and tournament configs are refused with the key's name and the nearest valid key, nested objects too. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseLeagueConfig } from '../../league/config';
import { keysAt } from '../../league/config-issues';
import { LeagueConfigSchema } from '../../league/config';
import { parseTournamentConfig } from '../../league/tournament/config';

const league = (extra: Record<string, unknown> = {}) => ({ name: 'l', env: 'rock-paper-scissors-v1', players: [{ id: 'a', agent: 'random' }], budget: { matches: 3 }, ...extra });
const tournament = (extra: Record<string, unknown> = {}) => ({
  name: 't',
  format: 'round-robin',
  env: 'rock-paper-scissors-v1',
  players: [
    { id: 'a', agent: 'random' },
    { id: 'b', agent: 'random' },
  ],
  ...extra,
});

describe('league config keys', () => {
  test('a top-level unknown key: its name and the nearest valid key', () => {
    expect(() => parseLeagueConfig(league({ bogus: 1 }))).toThrow(/^unknown key "bogus" in league config; did you mean "budget"\?$/);
    expect(() => parseLeagueConfig(league({ windw: 4 }))).toThrow('unknown key "windw" in league config; did you mean "window"?');
  });

  test('nested objects: players, ratings, matchmaking, training, budget, learners, sources, probes', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ players: [{ id: 'a', agent: 'random', role: ['x'] }] }, 'unknown key "role" in league config at players.0; did you mean "roles"?'],
      [{ ratings: { elok: 16 } }, 'unknown key "elok" in league config at ratings; did you mean "eloK"?'],
      [{ matchmaking: { mdoe: 'pfsp' } }, 'unknown key "mdoe" in league config at matchmaking; did you mean "mode"?'],
      [{ training: { evry: 5 } }, 'unknown key "evry" in league config at training; did you mean "every"?'],
      [{ budget: { matches: 3, games: 4 } }, 'unknown key "games" in league config at budget; did you mean "matches"?'],
      [{ learners: [{ id: 'l', roles: ['player'], algorithim: 'ppo' }] }, 'unknown key "algorithim" in league config at learners.0; did you mean "algorithm"?'],
      [{ learners: [{ id: 'l', roles: ['player'], sources: [{ kind: 'snapshots', of: 'l', pfps: 'var' }] }] }, 'unknown key "pfps" in league config at learners.0.sources.0; did you mean "pfsp"?'],
      [{ learners: [{ id: 'l', roles: ['player'], sources: [{ kind: 'generator', param: {} }] }] }, 'unknown key "param" in league config at learners.0.sources.0; did you mean "params"?'],
      [{ probes: [{ id: 'p', players: {}, episode: 3 }] }, 'unknown key "episode" in league config at probes.0; did you mean "episodes"?'],
    ];
    for (const [extra, message] of cases) expect(() => parseLeagueConfig(league(extra))).toThrow(message);
  });

  test('several problems at once: every unknown key and the other issues, in one message', () => {
    expect(() => parseLeagueConfig(league({ bogus: 1, seed: 'x', ratings: { elok: 1 } }))).toThrow(
      /unknown key "bogus" in league config; did you mean "budget"\?.*unknown key "elok" in league config at ratings; did you mean "eloK"\?.*league config: seed: /,
    );
  });

  test('free-form objects stay free: params and trainer options take any key', () => {
    expect(parseLeagueConfig(league({ params: { anything: 1 }, learners: [{ id: 'l', roles: ['player'], options: { lr: 1 } }] })).params).toEqual({ anything: 1 });
  });

  test('keysAt follows arrays, wrappers and the discriminated union option the input selects', () => {
    expect(keysAt(LeagueConfigSchema, ['learners', 0, 'sources', 0], { learners: [{ sources: [{ kind: 'players' }] }] })).toEqual(['kind', 'weight', 'ids']);
    expect(keysAt(LeagueConfigSchema, ['ratings'], {})).toEqual(['eloK', 'eloInitial', 'bootstrap']);
    expect(keysAt(LeagueConfigSchema, ['params'], {})).toBeNull();
  });
});

describe('tournament config keys', () => {
  test('top level, entrants, ratings and the sprt block', () => {
    expect(() => parseTournamentConfig(tournament({ game: 4 }))).toThrow('unknown key "game" in tournament config; did you mean "games"?');
    expect(() => parseTournamentConfig(tournament({ players: [{ id: 'a', agnet: 'random' }, { id: 'b', agent: 'random' }] }))).toThrow(
      'unknown key "agnet" in tournament config at players.0; did you mean "agent"?',
    );
    expect(() => parseTournamentConfig(tournament({ ratings: { eloInitail: 1000 } }))).toThrow('unknown key "eloInitail" in tournament config at ratings; did you mean "eloInitial"?');
    expect(() => parseTournamentConfig(tournament({ format: 'sprt', sprt: { elo0: 0, elo1: 5, alfa: 0.1 } }))).toThrow('unknown key "alfa" in tournament config at sprt; did you mean "alpha"?');
  });
});

describe('the shipped example configs use only known keys', () => {
  const dir = resolve(__dirname, '..', '..', 'examples');
  test.each(readdirSync(join(dir, 'leagues')))('leagues/%s', (f) => {
    expect(() => parseLeagueConfig(JSON.parse(readFileSync(join(dir, 'leagues', f), 'utf8')))).not.toThrow();
  });
  test.each(readdirSync(join(dir, 'tournaments')))('tournaments/%s', (f) => {
    expect(() => parseTournamentConfig(JSON.parse(readFileSync(join(dir, 'tournaments', f), 'utf8')))).not.toThrow();
  });
});
