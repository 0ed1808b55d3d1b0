import { defaultRegistry } from '../../../app/catalog';
import { playCommand } from '../../../app/cli/commands/play';

/** Runs `arena play` in-process (the CLI's code path) and returns its stdout lines as JSON. */
async function arenaPlay(args: { agents: string; params: string; episodes: number; seed?: number }): Promise<Record<string, any>[]> {
  const out: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    const code = await playCommand(defaultRegistry, 'werewolf-v1', { seed: args.seed ?? 0, json: true, ...args });
    expect(code).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return out.join('').trim().split('\n').map((l) => JSON.parse(l));
}

describe('arena play werewolf-v1 (CLI code path)', () => {
  test('random agents on the arena preset: one line per episode, then team win rates', async () => {
    const lines = await arenaPlay({ agents: 'random', params: '{"preset":"arena"}', episodes: 400 });
    expect(lines).toHaveLength(401);
    const { summary } = lines[400];
    expect(summary.episodes).toBe(400);
    const { winRate, wins, meanRounds, villagerVoteOnWolfRate, keyRoleSurvival } = summary.env;
    expect(wins.werewolves + wins.villagers + wins.draw).toBe(400);
    expect(winRate.werewolves + winRate.villagers + winRate.draw).toBeCloseTo(1, 2);
    expect(summary.outcomes.werewolves).toBe(wins.werewolves);
    // random villagers rarely win Werewolf Arena's rules (no majority is ever reached by chance)
    expect(winRate.werewolves).toBeGreaterThan(0.85);
    expect(meanRounds).toBeGreaterThan(3);
    expect(villagerVoteOnWolfRate).toBeGreaterThan(0.25);
    expect(Object.keys(keyRoleSurvival).sort()).toEqual(['doctor', 'seer']);
    expect(lines[0]).toMatchObject({ episode: 0, seed: 0, code: 'ok', summary: { preset: 'arena' } });
  });

  test('rule-based agents on every preset', async () => {
    for (const preset of ['lspo', 'witch-guard']) {
      const lines = await arenaPlay({ agents: 'rule-based', params: JSON.stringify({ preset }), episodes: 50, seed: 100 });
      expect(lines[50].summary.env.games).toBe(50);
      expect(lines[50].summary.faults).toBe(0);
    }
  });
});
