import { fillSeats, SeatFillError } from '../../../league/matchmaking/seat-filling';
import { pickPfspOpponent } from '../../../league/matchmaking/pfsp';
import type { SeatInfo } from '../../../src/core/env';
import { Rng } from '../../../src/core/rng';

const countdownSeats: SeatInfo[] = [
  { role: 'challenger', team: 'challenger' },
  { role: 'solver', team: 'solver' },
];
const werewolfSeats: SeatInfo[] = [
  { role: 'werewolf', team: 'werewolves' },
  { role: 'villager', team: 'villagers' },
  { role: 'werewolf', team: 'werewolves' },
  { role: 'seer', team: 'villagers' },
  { role: 'villager', team: 'villagers' },
];

describe('role-aware seat filling', () => {
  const countdownPop = [
    { id: 'ch-learner', roles: ['challenger'] },
    { id: 'ch-old', roles: ['challenger'] },
    { id: 'so-1', roles: ['solver'] },
    { id: 'so-2', roles: ['solver'] },
  ];

  test('a challenger faces solvers: every seat gets a player of its role', () => {
    for (let seed = 0; seed < 30; seed++) {
      const ids = fillSeats(countdownSeats, countdownPop, Rng.fromSeed(seed), { focal: { id: 'ch-learner' } });
      expect(ids[0]).toBe('ch-learner');
      expect(['so-1', 'so-2']).toContain(ids[1]);
    }
    const solverFocal = fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { focal: { id: 'so-2' } });
    expect(solverFocal[1]).toBe('so-2');
    expect(['ch-learner', 'ch-old']).toContain(solverFocal[0]);
  });

  test('Werewolf is filled by team: one wolf player on both wolf seats, one villager player on the villager seats', () => {
    const pop = [
      { id: 'wolf-a', roles: ['werewolf'] },
      { id: 'wolf-b', roles: ['werewolf'] },
      { id: 'town', roles: ['villager', 'seer'] },
      { id: 'plain', roles: ['villager'] },
    ];
    const ids = fillSeats(werewolfSeats, pop, Rng.fromSeed(3));
    expect(ids[0]).toBe(ids[2]);
    expect(['wolf-a', 'wolf-b']).toContain(ids[0]);
    // Only "town" can play every villager-team role (villager and seer).
    expect([ids[1], ids[3], ids[4]]).toEqual(['town', 'town', 'town']);
  });

  test('by seat: each seat its own eligible player; distinct "seats" puts a different player everywhere', () => {
    const pop = [
      { id: 'w1', roles: ['werewolf'] },
      { id: 'w2', roles: ['werewolf'] },
      { id: 'v1', roles: ['villager'] },
      { id: 'v2', roles: ['villager'] },
      { id: 's1', roles: ['seer'] },
    ];
    const ids = fillSeats(werewolfSeats, pop, Rng.fromSeed(4), { by: 'seat', distinct: 'seats' });
    expect(new Set(ids).size).toBe(5);
    expect([ids[0], ids[2]].sort()).toEqual(['w1', 'w2']);
    expect(ids[3]).toBe('s1');
  });

  test('a player absent of roles plays any role, but never on two teams by default; "none" allows mirror self-play', () => {
    const pop = [{ id: 'any' }, { id: 'so', roles: ['solver'] }];
    for (let seed = 0; seed < 10; seed++) expect(fillSeats(countdownSeats, pop, Rng.fromSeed(seed))).toEqual(['any', 'so']);
    expect(fillSeats(countdownSeats, [{ id: 'any' }], Rng.fromSeed(1), { distinct: 'none' })).toEqual(['any', 'any']);
    expect(() => fillSeats(countdownSeats, [{ id: 'any' }], Rng.fromSeed(1))).toThrow(
      'seat filling: cannot fill seat 1 (role "solver", team "solver"): every player who can play "solver" is already seated elsewhere (distinct: "teams")',
    );
  });

  test('a role with no eligible player is a clear error naming role, seat, team and the population', () => {
    const pop = [{ id: 'ch', roles: ['challenger'] }];
    expect(() => fillSeats(countdownSeats, pop, Rng.fromSeed(1))).toThrow(SeatFillError);
    expect(() => fillSeats(countdownSeats, pop, Rng.fromSeed(1))).toThrow('seat filling: cannot fill seat 1 (role "solver", team "solver")');
    expect(() => fillSeats(countdownSeats, pop, Rng.fromSeed(1))).toThrow('no player can play "solver"; population: ch [challenger]');
    const wolvesOnly = [{ id: 'w', roles: ['werewolf'] }, { id: 'v', roles: ['villager'] }];
    expect(() => fillSeats(werewolfSeats, wolvesOnly, Rng.fromSeed(1))).toThrow('seat filling: cannot fill team "villagers" (seats 1, 3, 4): no player can play "villager" and "seer"');
    expect(() => fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { focal: { id: 'nobody' } })).toThrow('seat filling: focal player "nobody" is not in the population');
    expect(() => fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { focal: { id: 'so-1', role: 'challenger' } })).toThrow(
      'seat filling: focal player "so-1" (plays solver) fits no open team with role "challenger"',
    );
  });

  test('fixed seats are honoured and checked; a pick callback (PFSP) chooses among eligible players only', () => {
    expect(fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { fixed: { 1: 'so-2' }, focal: { id: 'ch-old' } })).toEqual(['ch-old', 'so-2']);
    expect(() => fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { fixed: { 0: 'so-2' } })).toThrow('seat filling: fixed player "so-2" cannot play role "challenger" of seat 0 (plays solver)');
    const rng = Rng.fromSeed(8);
    const seen: string[][] = [];
    const winProb = (_a: string, b: string) => (b === 'so-1' ? 0.9 : 0.1);
    const ids = fillSeats(countdownSeats, countdownPop, rng, {
      focal: { id: 'ch-learner' },
      pick: (eligible, ctx) => {
        seen.push(eligible.map((p) => p.id));
        expect(ctx.focal).toBe('ch-learner');
        expect(ctx.roles).toEqual(['solver']);
        return pickPfspOpponent(ctx.focal!, eligible, winProb, rng);
      },
    });
    expect(seen).toEqual([['so-1', 'so-2']]);
    expect(ids[0]).toBe('ch-learner');
    expect(() => fillSeats(countdownSeats, countdownPop, Rng.fromSeed(1), { pick: () => ({ id: 'ghost' }) })).toThrow('pick returned "ghost", which is not eligible');
  });

  test('same seed, same seating', () => {
    const pop = [{ id: 'w1', roles: ['werewolf'] }, { id: 'w2', roles: ['werewolf'] }, { id: 't1', roles: ['villager', 'seer'] }, { id: 't2', roles: ['villager', 'seer'] }];
    const run = (seed: number) => Array.from({ length: 20 }, (_, k) => fillSeats(werewolfSeats, pop, Rng.fromSeed(seed * 100 + k)).join(','));
    expect(run(1)).toEqual(run(1));
    expect(new Set(run(1)).size).toBeGreaterThan(1);
  });
});
