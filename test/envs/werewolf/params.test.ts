import { make } from '../../../app/catalog';
import { ParamError } from '../../../src/core/params';
import { PRESET_FLAGS, resolveRules } from '../../../envs/werewolf/config';
import type { WerewolfState } from '../../../envs/werewolf/state';

describe('werewolf-v1 params', () => {
  test('each preset fills every flag; explicit params override single flags', () => {
    const arena = resolveRules(make('werewolf-v1').params);
    expect(arena).toMatchObject({ preset: 'arena', players: 8, debate: 'bidding', debateTurns: 8, exile: 'majority', winRule: 'parity', seerResult: 'role' });
    expect(arena.composition).toEqual({ villager: 4, werewolf: 2, seer: 1, doctor: 1, witch: 0, guard: 0 });
    const lspo = resolveRules(make('werewolf-v1', { preset: 'lspo', voting: 'sequential' }).params);
    expect(lspo).toMatchObject({ preset: 'lspo', players: 7, voting: 'sequential', abstain: true, exile: 'plurality-random', winRule: 'majority', maxRounds: 10, roundCap: 'random' });
    const wg = resolveRules(make('werewolf-v1', { preset: 'witch-guard', debateTurns: 3, guardRepeat: true }).params);
    expect(wg).toMatchObject({ players: 7, nightKill: 'vote-in-turn', guardRepeat: true, exile: 'plurality-none', winRule: 'villagers-dead', debate: 'shuffled' });
    expect(wg.composition).toMatchObject({ werewolf: 2, villager: 2, seer: 1, witch: 1, guard: 1 });
    expect(Object.keys(PRESET_FLAGS)).toEqual(['arena', 'lspo', 'witch-guard']);
  });

  test.each([
    [{ preset: 'mafia' }, /param "preset" must be one of "arena", "lspo", "witch-guard"/],
    [{ debateTurns: -1 }, /param "debateTurns" must be an integer in \[0, 50\]/],
    [{ maxBid: 10 }, /param "maxBid" must be an integer in \[1, 9\]/],
    [{ exile: 'lottery' }, /param "exile" must be one of "majority", "plurality-random", "plurality-none"/],
    [{ composition: { werewolf: 0, villager: 5 } }, /param "composition" needs at least 1 werewolf/],
    [{ composition: { werewolf: 2, hunter: 1 } }, /param "composition" has unknown role "hunter"/],
    [{ composition: { werewolf: 3, villager: 3 } }, /param "composition" needs fewer werewolves than other players/],
    [{ composition: { werewolf: 2, villager: 12 } }, /param "composition" must have 3\.\.12 players/],
    [{ roles: ['werewolf', 'seer', 'seer', 'villager'] }, /param "roles" allows at most 1 seer/],
    [{ roles: 'werewolf' }, /param "roles" must be an array of role names/],
    [{ seerRepeat: 'yes' }, /param "seerRepeat" must be true or false/],
    [{ dayLength: 3 }, /param "dayLength" is not a parameter \(known: preset, composition, roles/],
  ])('bad params are rejected naming the field: %j', (raw, message) => {
    expect(() => make('werewolf-v1', raw)).toThrow(ParamError);
    expect(() => make('werewolf-v1', raw)).toThrow(message);
  });

  test('fields that contradict each other are rejected up front by make, naming the field', () => {
    expect(() => make('werewolf-v1', { composition: { werewolf: 1, villager: 3 }, roles: ['werewolf', 'villager', 'villager', 'seer'] })).toThrow(
      /param "roles" do not match "composition"/,
    );
    expect(() => make('werewolf-v1', { preset: 'witch-guard', composition: { werewolf: 1, seer: 1, witch: 1, guard: 1 } })).toThrow(
      /param "winRule" "villagers-dead" needs at least one plain villager/,
    );
  });

  test('a fixed deal is hidden from spectators; every other param is public', () => {
    const roles = ['werewolf', 'werewolf', 'seer', 'doctor', 'villager', 'villager', 'villager', 'villager'];
    const h = make('werewolf-v1', { roles });
    expect(h.env.publicParams!(h.params)).not.toHaveProperty('roles');
    expect(h.env.publicParams!(h.params)).toHaveProperty('preset', 'arena');
  });

  test('roles are dealt from the seed, or fixed per seat by the roles param', () => {
    const h = make('werewolf-v1', { preset: 'lspo' });
    const deals = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const s = h.init(seed) as WerewolfState;
      const roles = h.env.seats(s).map((x: { role: string }) => x.role);
      expect([...roles].sort()).toEqual(['doctor', 'seer', 'villager', 'villager', 'villager', 'werewolf', 'werewolf']);
      deals.add(roles.join());
      expect(h.env.seats(h.init(seed))).toEqual(h.env.seats(s));
    }
    expect(deals.size).toBeGreaterThan(10);
    const fixed = ['villager', 'werewolf', 'seer', 'doctor', 'villager', 'werewolf', 'villager'];
    const f = make('werewolf-v1', { preset: 'lspo', roles: fixed });
    for (const seed of [1, 2, 3]) {
      expect(f.env.seats(f.init(seed))).toEqual(fixed.map((role) => ({ role, team: role === 'werewolf' ? 'werewolves' : 'villagers' })));
    }
    // a custom composition (9 players with a guard) and its size
    const c = make('werewolf-v1', { composition: { werewolf: 2, villager: 5, seer: 1, guard: 1 } });
    expect(c.env.seats(c.init(1))).toHaveLength(9);
  });

  test('maxLength bounds the game from the rules', () => {
    const h = make('werewolf-v1', { preset: 'arena' });
    expect(h.env.maxLengthFor(h.params)).toBe(20 * (1 + 16 + 1) + 2);
    const w = make('werewolf-v1', { preset: 'witch-guard' });
    expect(w.env.maxLengthFor(w.params)).toBe(20 * (4 + 7 + 7) + 2);
  });
});
