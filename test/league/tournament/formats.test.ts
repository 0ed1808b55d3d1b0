import { parseTournamentConfig, type TournamentConfig } from '../../../league/tournament/config';
import { buildCrosstable } from '../../../league/tournament/crosstable';
import type { GameOutcome } from '../../../league/tournament/game-outcome';
import { tournamentOutcomes } from '../../../league/tournament/report';
import { fixedSchedule, gauntletEncounters, nextBatch, roundRobinEncounters, sprtCounts, type GameSlot, type RoundRecord } from '../../../league/tournament/schedule';
import { buildStandings } from '../../../league/tournament/standings';
import { swissPairing, SwissPairingError } from '../../../league/tournament/swiss';

const players = (ids: string[]) => ids.map((id) => ({ id, agent: 'random' }));
const cfg = (extra: Record<string, unknown>): TournamentConfig => parseTournamentConfig({ name: 't', env: 'e', ...extra });
/** a's outcome in a slot (sides as the runner assigns them: a holds seat 0 unless swapped). */
const out = (slot: GameSlot, score: 1 | 0.5 | 0): GameOutcome => ({ score, sideA: slot.swapped ? 'seat 1' : 'seat 0', sideB: slot.swapped ? 'seat 0' : 'seat 1', code: 'ok' });

describe('round-robin and gauntlet schedules', () => {
  test('circle method: every pair once, in rounds, nobody twice in a round', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const enc = roundRobinEncounters(ids);
    expect(enc).toHaveLength(10);
    const pairs = new Set(enc.map((e) => [e.a, e.b].sort().join('-')));
    expect(pairs.size).toBe(10);
    for (let r = 0; r < 5; r++) {
      const inRound = enc.filter((e) => e.round === r).flatMap((e) => [e.a, e.b]);
      expect(new Set(inRound).size).toBe(inRound.length);
    }
    expect(gauntletEncounters(['x'], ['a', 'b']).map((e) => `${e.a}-${e.b}@${e.round}`)).toEqual(['x-a@0', 'x-b@1']);
  });

  test('paired games: one seed per pair, seats swapped, the same seeds in every encounter', () => {
    const slots = fixedSchedule(cfg({ format: 'round-robin', players: players(['a', 'b', 'c']), games: 4 }));
    expect(slots).toHaveLength(12);
    expect(slots.map((s) => s.idx)).toEqual(slots.map((_, i) => i));
    const first = slots.filter((s) => s.encounter === 0);
    expect(first.map((s) => s.swapped)).toEqual([false, true, false, true]);
    expect(first[0].seed).toBe(first[1].seed);
    expect(first[1].seed).not.toBe(first[2].seed);
    expect(slots.filter((s) => s.encounter === 2).map((s) => s.seed)).toEqual(first.map((s) => s.seed));
    const unpaired = fixedSchedule(cfg({ format: 'round-robin', players: players(['a', 'b']), games: 3, paired: false }));
    expect(new Set(unpaired.map((s) => s.seed)).size).toBe(3);
    expect(unpaired.map((s) => s.pair)).toEqual([null, null, null]);
  });
});

describe('3-player round-robin crosstable (hand-computed)', () => {
  // Encounters (circle method): B–C, A–C, A–B, two paired games each.
  // B–C: B wins, draw.  A–C: A wins twice.  A–B: A loses, draw.
  const config = cfg({ format: 'round-robin', players: players(['A', 'B', 'C']), games: 2 });
  const slots = fixedSchedule(config);
  const scores: (1 | 0.5 | 0)[] = [1, 0.5, 1, 1, 0, 0.5];
  const outcomes = slots.map((s, k) => out(s, scores[k]));

  test('schedule order', () => {
    expect(slots.map((s) => `${s.a}-${s.b}`)).toEqual(['B-C', 'B-C', 'A-C', 'A-C', 'A-B', 'A-B']);
  });

  test('cells: W-D-L, points, per seat, pentanomial', () => {
    const ct = buildCrosstable(['A', 'B', 'C'], slots, outcomes);
    const cell = (a: string, b: string) => ct.cells.find((c) => c.player === a && c.opponent === b)!;
    expect(ct.cells).toHaveLength(6);
    expect(cell('A', 'B')).toMatchObject({ games: 2, wins: 0, draws: 1, losses: 1, points: 0.5, score: 0.25, pentanomial: [0, 1, 0, 0, 0] });
    expect(cell('A', 'B').bySide).toEqual({ 'seat 0': { games: 1, wins: 0, draws: 0, losses: 1 }, 'seat 1': { games: 1, wins: 0, draws: 1, losses: 0 } });
    expect(cell('B', 'A')).toMatchObject({ wins: 1, draws: 1, losses: 0, points: 1.5, pentanomial: [0, 0, 0, 1, 0] });
    expect(cell('B', 'A').bySide).toEqual({ 'seat 1': { games: 1, wins: 1, draws: 0, losses: 0 }, 'seat 0': { games: 1, wins: 0, draws: 1, losses: 0 } });
    expect(cell('A', 'C')).toMatchObject({ wins: 2, draws: 0, losses: 0, points: 2, pentanomial: [0, 0, 0, 0, 1] });
    expect(cell('C', 'A').elo.elo).toBe(-Infinity);
    expect(cell('C', 'B')).toMatchObject({ wins: 0, draws: 1, losses: 1, points: 0.5, score: 0.25 });
  });

  test('standings: points, Sonneborn–Berger, Elo with interval and LOS from pentanomial pairs', () => {
    const rows = buildStandings(['A', 'B', 'C'], slots, outcomes);
    expect(rows.map((r) => [r.rank, r.player, r.points])).toEqual([
      [1, 'B', 3],
      [2, 'A', 2.5],
      [3, 'C', 0.5],
    ]);
    const by = Object.fromEntries(rows.map((r) => [r.player, r]));
    // S-B = Σ (points vs opp / games vs opp) × opp points: B = ¾·0.5 + ¾·2.5 = 2.25; A = 1·0.5 + ¼·3 = 1.25; C = ¼·3 + 0 = 0.75
    expect(by.B.sonnebornBerger).toBeCloseTo(2.25, 12);
    expect(by.A.sonnebornBerger).toBeCloseTo(1.25, 12);
    expect(by.C.sonnebornBerger).toBeCloseTo(0.75, 12);
    expect(by.A.trinomial).toEqual([1, 1, 2]);
    expect(by.A.pentanomial).toEqual([0, 1, 0, 0, 1]);
    // A: pairs ¼ and 1 → μ = 0.625, σ² = 0.140625, SE = √(σ²/2) = 0.265165; Elo 88.739, LOS Φ(0.125/SE) = 0.681324
    expect(by.A.elo.elo).toBeCloseTo(88.7394998, 5);
    expect(by.A.elo.se).toBeCloseTo(0.265165043, 8);
    expect(by.A.elo.los).toBeCloseTo(0.681324056, 6);
    // B: both pairs 1½ → μ = ¾, no variance: Elo 190.85 with a zero-width interval, LOS 1
    expect(by.B.elo.elo).toBeCloseTo(190.848502, 5);
    expect(by.B.elo.eloLo).toBeCloseTo(190.848502, 5);
    expect(by.B.elo.los).toBe(1);
  });
});

describe('Swiss', () => {
  const entrant = (id: string, seed: number, score: number, met: string[] = [], byes = 0) => ({ id, seed, score, opponents: new Set(met), byes });

  test('a pairing round by hand: nearest rank without repeats, backtracking', () => {
    // after round 1 (P1–P2 1:0, P3–P4 ½:½, P5–P6 0:1): P1 1, P6 1, P3 ½, P4 ½, P2 0, P5 0
    const r = swissPairing([
      entrant('P1', 0, 1, ['P2']),
      entrant('P2', 1, 0, ['P1']),
      entrant('P3', 2, 0.5, ['P4']),
      entrant('P4', 3, 0.5, ['P3']),
      entrant('P5', 4, 0, ['P6']),
      entrant('P6', 5, 1, ['P5']),
    ]);
    expect(r).toEqual({ pairings: [['P1', 'P6'], ['P3', 'P2'], ['P4', 'P5']], bye: null });
  });

  test('byes: the lowest-ranked player without a bye; never a repeat', () => {
    const r = swissPairing([entrant('P1', 0, 1, ['P2']), entrant('P2', 1, 0, ['P1']), entrant('P3', 2, 0.5, ['P4']), entrant('P4', 3, 0.5, ['P3']), entrant('P5', 4, 1, [], 1)]);
    expect(r).toEqual({ pairings: [['P1', 'P3'], ['P5', 'P4']], bye: 'P2' });
    expect(() => swissPairing([entrant('a', 0, 0, ['b']), entrant('b', 1, 0, ['a'])])).toThrow(/no pairing of 2 players without a repeated encounter/);
  });

  test('rounds through nextBatch, then Buchholz and Sonneborn–Berger by hand', () => {
    const config = cfg({ format: 'swiss', players: players(['P1', 'P2', 'P3', 'P4', 'P5', 'P6']), games: 1, paired: false, rounds: 2 });
    const b0 = nextBatch(config, { outcomes: [], rounds: [] })!;
    expect(b0.round).toEqual({ round: 0, pairings: [['P1', 'P2'], ['P3', 'P4'], ['P5', 'P6']], bye: null });
    const o0 = [out(b0.slots[0], 1), out(b0.slots[1], 0.5), out(b0.slots[2], 0)];
    expect(nextBatch(config, { outcomes: o0.slice(0, 2), rounds: [b0.round!] })!.slots.map((s) => s.idx)).toEqual([2]); // the rest of round 1
    const b1 = nextBatch(config, { outcomes: o0, rounds: [b0.round!] })!;
    expect(b1.round!.pairings).toEqual([['P1', 'P6'], ['P3', 'P2'], ['P4', 'P5']]);
    expect(b1.slots.map((s) => s.idx)).toEqual([3, 4, 5]);
    expect(b0.slots[0].seed).not.toBe(b1.slots[0].seed); // a new deal every round
    const o1 = [out(b1.slots[0], 1), out(b1.slots[1], 1), out(b1.slots[2], 0.5)];
    const rounds = [b0.round!, b1.round!];
    expect(nextBatch(config, { outcomes: [...o0, ...o1], rounds })).toBeNull();
    const rows = buildStandings(config.players.map((p) => p.id), [...b0.slots, ...b1.slots], [...o0, ...o1], { rounds, swiss: true, byePoints: 1 });
    // points P1 2, P3 1.5, P6 1, P4 1, P5 ½, P2 0; Buchholz P6 = ½ + 2 = 2.5 > P4 = 1.5 + ½ = 2
    expect(rows.map((r) => `${r.rank}:${r.player}:${r.points}:${r.buchholz}`)).toEqual(['1:P1:2:1', '2:P3:1.5:1', '3:P6:1:2.5', '4:P4:1:2', '5:P5:0.5:2', '6:P2:0:3.5']);
    const sb = Object.fromEntries(rows.map((r) => [r.player, r.sonnebornBerger]));
    expect(sb).toEqual({ P1: 1, P3: 0.5, P6: 0.5, P4: 1, P5: 0.5, P2: 0 });
  });

  test('too many rounds for the field: a SwissPairingError naming the round, not a wrong pairing', () => {
    // 10 players, 9 rounds, pseudo-random results: Monrad pairing gets stuck in round 8
    const config = cfg({ format: 'swiss', players: players(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']), games: 1, paired: false, rounds: 9 });
    const outcomes: GameOutcome[] = [];
    const rounds: RoundRecord[] = [];
    let s = 7;
    const play = () => {
      for (;;) {
        const b = nextBatch(config, { outcomes, rounds });
        if (!b) return;
        if (b.round) rounds.push(b.round);
        for (const slot of b.slots) {
          s = (s * 16807) % 2147483647;
          outcomes.push(out(slot, ([0, 0.5, 1] as const)[s % 3]));
        }
      }
    };
    expect(play).toThrow(SwissPairingError);
    expect(play).toThrow(/^swiss round 8: no pairing of 10 players without a repeated encounter; use fewer rounds \(config field "rounds"\)/);
    const met = new Set<string>();
    for (const r of rounds) for (const [a, b] of r.pairings) {
      const key = [a, b].sort().join('-');
      expect(met.has(key)).toBe(false);
      met.add(key);
    }
    expect(rounds).toHaveLength(7);
  });

  test('an odd field: the bye scores the encounter and is stored with the round', () => {
    const config = cfg({ format: 'swiss', players: players(['a', 'b', 'c']), games: 2, rounds: 3 });
    const b0 = nextBatch(config, { outcomes: [], rounds: [] })!;
    expect(b0.round).toEqual({ round: 0, pairings: [['a', 'b']], bye: 'c' });
    const o0 = b0.slots.map((s) => out(s, 1));
    const b1 = nextBatch(config, { outcomes: o0, rounds: [b0.round!] })!;
    // a 2, c 2 (bye), b 0 → a meets c; b has the bye
    expect(b1.round).toEqual({ round: 1, pairings: [['a', 'c']], bye: 'b' });
  });
});

describe('SPRT schedule', () => {
  const config = cfg({ format: 'sprt', players: players(['new', 'old']), sprt: { elo0: 0, elo1: 50, maxGames: 6 } });
  test('pairs until the limit; counts are pentanomial over complete pairs', () => {
    const b = nextBatch(config, { outcomes: [], rounds: [] })!;
    expect(b.slots.map((s) => [s.idx, s.swapped, s.pair])).toEqual([
      [0, false, 0],
      [1, true, 0],
    ]);
    const o = (score: 1 | 0.5 | 0) => ({ score, sideA: 'seat 0', sideB: 'seat 1', code: 'ok' });
    expect(sprtCounts(config, [o(1), o(0.5), o(0)])).toEqual([0, 0, 0, 1, 0]);
    expect(nextBatch(config, { outcomes: [o(1)], rounds: [] })!.slots.map((s) => s.idx)).toEqual([1]);
    expect(nextBatch(config, { outcomes: [o(1), o(1), o(1), o(1), o(1), o(1)], rounds: [] })).toBeNull();
  });
  test('stops as soon as the test decides', () => {
    const decisive = cfg({ format: 'sprt', players: players(['new', 'old']), sprt: { elo0: 0, elo1: 200 } });
    const win = { score: 1 as const, sideA: 'seat 0', sideB: 'seat 1', code: 'ok' };
    let outcomes: GameOutcome[] = [];
    while (nextBatch(decisive, { outcomes, rounds: [] })) outcomes = [...outcomes, win];
    expect(outcomes.length).toBeLessThan(40);
    expect(outcomes.length % 2).toBe(0);
  });
});

describe('config errors name the field', () => {
  const base = { name: 't', env: 'e', players: players(['a', 'b', 'c']) };
  test.each([
    [{ ...base, format: 'knockout' }, /format: Invalid option/],
    [{ ...base, format: 'round-robin', games: 3 }, /games: must be even when paired/],
    [{ ...base, format: 'gauntlet' }, /challengers: a gauntlet needs at least one challenger/],
    [{ ...base, format: 'gauntlet', challengers: ['zz'] }, /challengers\.0: "zz" is not a player id/],
    [{ ...base, format: 'round-robin', challengers: ['a'] }, /challengers: only a gauntlet has challengers/],
    [{ ...base, format: 'swiss', rounds: 4 }, /rounds: at most 3 rounds for 3 players/],
    [{ ...base, format: 'sprt', sprt: { elo0: 0, elo1: 5 } }, /players: an sprt compares exactly 2 players/],
    [{ ...base, players: players(['a', 'b']), format: 'sprt' }, /sprt: the sprt format needs/],
    [{ ...base, players: players(['a', 'b']), format: 'sprt', sprt: { elo0: 5, elo1: 5 } }, /sprt\.elo1: must be greater than elo0/],
    [{ ...base, format: 'round-robin', players: [{ id: 'a', agent: 'x' }, { id: 'a', agent: 'y' }] }, /players: duplicate id "a"/],
    [{ ...base, format: 'round-robin', players: [{ id: 'a b', agent: 'x' }, { id: 'c', agent: 'y' }] }, /players\.0\.id: use letters/],
  ])('%#', (raw, message) => {
    expect(() => parseTournamentConfig(raw)).toThrow(message);
  });
});

test('stored games that do not fit the schedule are reported, not miscounted', () => {
  const config = cfg({ format: 'round-robin', players: players(['a', 'b']), games: 2 });
  const game = (idx: number) => ({
    league: 't', idx, id: `t:${idx}`, env: 'e', params: {}, seed: 1, returns: [1, 0], outcome: 'x', code: 'ok', length: 1, faults: [], summary: null, startedAt: 0, endedAt: 0,
    seats: [{ player: 'a', role: 'p', team: 'p' }, { player: 'b', role: 'p', team: 'p' }],
  });
  expect(tournamentOutcomes(config, [game(0)], []).outcomes).toEqual([{ score: 1, sideA: 'seat 0', sideB: 'seat 1', code: 'ok' }]);
  expect(() => tournamentOutcomes(config, [game(0), game(1), game(2)], [])).toThrow(/3 stored games but only 2 scheduled/);
  expect(() => tournamentOutcomes(config, [game(1)], [])).toThrow(/stored game 1 where 0 was expected/);
  expect(() => tournamentOutcomes(config, [{ ...game(0), seats: [{ player: 'a', role: 'p', team: 'p' }, { player: 'z', role: 'p', team: 'p' }] }], [])).toThrow(/player "b" does not hold a side/);
});
