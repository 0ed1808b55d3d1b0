/**
 * The env's words reach spectators: captions of actions (named by the env's prompt template from
 * the actor's observation) and of env events (the env's describe table, shared with its render),
 * the rules in force, and the views the server allows (with reasons for the others).
 */
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import { projectEvents } from '../../src/core/view-stream';
import { runMatch } from '../../src/match/runner';
import { randomAgent } from '../../agents/random';
import { EventCaptions } from '../../app/server/event-captions';
import { trackLog } from '../../app/server/state-tracker';
import { startServer } from '../../app/server/start-server';
import { viewOptions } from '../../app/server/view-policy';
import { teamsFromCreated } from '../../src/bus/view-filter';
import type { MatchCreated } from '../../src/core/events';
import { describePrivate, describePublic } from '../../envs/werewolf/render';
import { werewolfLabel } from '../../envs/werewolf/prompt';
import { connect, watch } from './helpers';

async function played(envId: string, params: Record<string, unknown>, seed: number): Promise<{ env: Env; events: MatchEvent[] }> {
  const env = defaultRegistry.env(envId);
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const p = env.resolveParams(params);
  await runMatch({ env, params: p, seed, matchId: 'm', bus, agents: (seats) => seats.map((_, i) => randomAgent.create({ env, params: p, seed: seed * 10 + i })) });
  const events = rec.events('m');
  rec.stop();
  return { env, events };
}

describe('event captions', () => {
  test('werewolf: every env event in the env words, actions named as the actor was asked (no raw ids)', async () => {
    const { env, events } = await played('werewolf-v1', { preset: 'arena' }, 7);
    const tracker = trackLog(events, (id) => defaultRegistry.env(id));
    const captions = new EventCaptions(env, tracker);
    let actions = 0;
    for (const e of events) {
      const text = captions.caption(e);
      if (e.type === 'env') {
        expect(text).not.toBeNull();
        if (e.visibility === 'public' && e.name !== 'floor') expect(text).toBe(describePublic({ ...e.data, type: e.name } as never));
        if (typeof e.visibility === 'object' && 'seat' in e.visibility) expect(text).toBe(describePrivate({ ...e.data, type: e.name } as never, e.visibility.seat));
        expect(text).not.toMatch(/^\{/);
      } else if (e.type === 'action') {
        actions++;
        const obs = env.observe(tracker!.stateBefore(e.step), e.seat);
        expect(text).toBe(`P${e.seat}: ${werewolfLabel(e.action as number, obs)}`);
        expect(text).not.toMatch(/: \d+$/);
      } else expect(text).toBeNull();
    }
    expect(actions).toBeGreaterThan(20);
    // a speech act reads as words: "P3: accuse P2"
    expect(events.filter((e) => e.type === 'action').map((e) => captions.caption(e)).join('\n')).toMatch(/P\d: (accuse|defend|claim|vote|kill|check|protect|bid) /);
  });

  test('deal-or-no-deal: offers are named by what the proposer keeps', async () => {
    const { env, events } = await played('deal-or-no-deal-v1', {}, 3);
    const captions = new EventCaptions(env, trackLog(events, (id) => defaultRegistry.env(id)));
    const offers = events.filter((e) => e.type === 'env' && e.name === 'offer');
    expect(offers.length).toBeGreaterThan(0);
    for (const e of offers) expect(captions.caption(e)).toMatch(/^P[01] offers to keep \d+ books?, \d+ hats? and \d+ balls?; the partner would get the rest\.$/);
    for (const e of events.filter((x) => x.type === 'action')) expect(captions.caption(e)).toMatch(/^P[01]: (agree|keep \d)/);
  });

  test('countdown: env events in words; the rules name the tiles and the scoring', async () => {
    const { env, events } = await played('countdown-v1', { rules: 'uk', attempts: 2 }, 5);
    const captions = new EventCaptions(env, trackLog(events, (id) => defaultRegistry.env(id)));
    for (const e of events.filter((x) => x.type === 'env')) expect(captions.caption(e)).toMatch(/^(Puzzle|Exact solver|Attempt|Answers|Prediction|Result)/);
    const uk = captions.rulesText()!;
    expect(uk).toMatch(/large tiles \(25, 50, 75, 100, one each\) and small tiles \(1 to 10, two each\)/);
    expect(uk).toMatch(/Scoring: 10 exact, 7 within 5, 5 within 10/);
    const tiny = await played('countdown-v1', { rules: 'tinyzero' }, 5);
    const tinyRules = new EventCaptions(tiny.env, trackLog(tiny.events, (id) => defaultRegistry.env(id))).rulesText()!;
    expect(tinyRules).toMatch(/no large or small tiles/);
    expect(tinyRules).toMatch(/1 if the expression equals the target, 0\.1 for any other answer/);
  });

  test('captions work on per-view copies; without a tracker only env events get words', async () => {
    const { env, events } = await played('werewolf-v1', { preset: 'arena' }, 3);
    const created = events[0] as MatchCreated;
    const view = projectEvents(events, 'public', teamsFromCreated(created));
    const withTracker = new EventCaptions(env, trackLog(events, (id) => defaultRegistry.env(id)));
    const attached = view.map((e) => withTracker.attach({ ...e }));
    expect(attached.filter((e) => e.type === 'env').every((e) => typeof e.caption === 'string')).toBe(true);
    expect(attached.find((e) => e.type === 'turn')).not.toHaveProperty('caption');
    const noTracker = new EventCaptions(env, null);
    const action = events.find((e) => e.type === 'action')!;
    expect(noTracker.caption(action)).toBeNull();
    expect(noTracker.rulesText()).toBeNull();
  });
});

describe('view options', () => {
  const policy = { allowOmniscient: false, revealFinished: true };
  test('a live match offers the public view only, saying why and that the others open at the end', () => {
    const opts = viewOptions({ live: true, seats: 2 }, policy);
    expect(opts.map((o) => o.view)).toEqual(['public', 'omniscient', 'seat:0', 'seat:1']);
    expect(opts[0]).toEqual({ view: 'public', allowed: true });
    for (const o of opts.slice(1)) {
      expect(o.allowed).toBe(false);
      expect(o.afterEnd).toBe(true);
      expect(o.reason).toMatch(/not allowed on this server \(allowed once the match has ended/);
    }
  });
  test('finished matches, --allow-omniscient and revealFinished: false', () => {
    expect(viewOptions({ live: false, seats: 2 }, policy).every((o) => o.allowed)).toBe(true);
    expect(viewOptions({ live: true, seats: 2 }, { ...policy, allowOmniscient: true }).every((o) => o.allowed)).toBe(true);
    const closed = viewOptions({ live: true, seats: 1 }, { allowOmniscient: false, revealFinished: false });
    expect(closed.filter((o) => !o.allowed).map((o) => o.afterEnd)).toEqual([undefined, undefined]);
    expect(viewOptions({ live: true, seats: null }, policy).map((o) => o.view)).toEqual(['public', 'omniscient']);
  });
});

describe('through the server', () => {
  test('join replies carry views, rules and captions; live events carry captions', async () => {
    const bus = new EventBus();
    const server = await startServer({ bus, port: 0 });
    const socket = await connect(server.url);
    try {
      const env = defaultRegistry.env('deal-or-no-deal-v1');
      const params = env.resolveParams({});
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const slow = (i: number) => {
        const inner = randomAgent.create({ env, params, seed: i });
        return { name: 'slow', act: async (obs: unknown, legal: readonly unknown[] | null, ctx: never) => (await gate, inner.act(obs as never, legal as never, ctx)) };
      };
      const started = new Promise<void>((resolve) => {
        const sub = bus.events$.subscribe((e) => e.type === 'turn' && (sub.unsubscribe(), resolve()));
      });
      const done = runMatch({ env, params, seed: 4, matchId: 'live-dond', bus, agents: [slow(0), slow(1)] });
      await started;
      const w = await watch(socket, 'live-dond');
      expect(w.snapshot.views.map((v) => [v.view, v.allowed])).toEqual([['public', true], ['omniscient', false], ['seat:0', false], ['seat:1', false]]);
      expect(w.snapshot.rules).toMatch(/^Two negotiators split a pool of/);
      release();
      await done;
      await w.ended;
      const offers = w.all().filter((e) => e.type === 'env' && e.name === 'offer') as (MatchEvent & { caption?: string })[];
      expect(offers.length).toBeGreaterThan(0);
      for (const e of offers) expect(e.caption).toMatch(/offers to keep/);
      const res = (await (await fetch(`${server.url}api/matches/live-dond`)).json()) as { views: { view: string; allowed: boolean }[] };
      expect(res.views.every((v) => v.allowed)).toBe(true);
    } finally {
      socket.close();
      await server.close();
    }
  });
});
