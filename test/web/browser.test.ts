/**
 * Browser tests: Debian chromium driven by playwright-core against a real server with live
 * matches on the bus and a league in a temporary SQLite store. Screenshots go to
 * test-artifacts/web/. Skipped (with a message) only when no chromium is installed.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { runMatch } from '../../src/match/runner';
import { randomAgent } from '../../agents/random';
import { rankRows } from '../../app/server/leaderboard';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { rps } from '../fixtures/load';
import { ARTIFACTS, CHROMIUM, launchBrowser, socketIoPayload } from './browser';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

const WEREWOLF = 'werewolf-v1';
/** Ceiling of every wait: the waits are on the page's state, so a loaded machine only makes them longer. */
const CEILING = 60_000;
jest.setTimeout(4 * CEILING);
const werewolf = (): Env => defaultRegistry.env(WEREWOLF);

/** Random legal play, answering after `ms` so a spectator can watch moves arrive. */
function slowRandom(env: Env, params: Params, seed: number, ms: number): Agent {
  const inner = randomAgent.create({ env, params, seed });
  return { name: 'random', act: (obs, legal, ctx) => new Promise((r) => setTimeout(() => r(inner.act(obs, legal, ctx)), ms)) };
}

describeBrowser('the web page in chromium', () => {
  let dir: string;
  let store: Store;
  let bus: EventBus;
  let recorder: MemoryRecorder;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let stop = false;
  let loop: Promise<void>;
  const liveIds: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
    store = new Store(join(dir, 'arena.db'));
    bus = new EventBus();
    recorder = new MemoryRecorder(bus);
    // a small league in the store: three finished matches with events, ratings, history, training
    store.ensureLeague('demo-rps', { env: 'rock-paper-scissors-v1' });
    const env = rps();
    for (let idx = 0; idx < 3; idx++) {
      const id = `rps-${idx}`;
      const params = env.resolveParams({ rounds: 5 });
      const r = await runMatch({ env, params, seed: idx, matchId: id, bus, agents: [randomAgent.create({ env, params, seed: idx }), randomAgent.create({ env, params, seed: idx + 9 })] });
      const events = recorder.events(id);
      store.recordMatch(
        { league: 'demo-rps', idx, id, env: r.env, params: params as JsonValue, seed: idx, seats: r.seats.map((s, i) => ({ player: i ? 'beta' : 'alpha', ...s })), returns: r.returns, outcome: r.outcome, code: r.code, length: r.length, faults: r.faults, summary: r.summary, startedAt: events[0].time, endedAt: events[events.length - 1].time },
        events,
        [],
        ['alpha', 'beta', 'gamma'].map((player, k) => ({ system: 'elo', player, role: 'player', matchIdx: idx, value: 1500 + (1 - k) * 10 * (idx + 1), time: idx })),
      );
    }
    for (let it = 0; it < 8; it++) store.recordTraining('demo-rps', it, 'player', { meanReturn: -0.5 + it * 0.1, eval: { alpha: { random: { winRate: 0.3 + it * 0.06 } } } });
    const board = rankRows([
      { player: 'alpha', role: 'player', rating: 1612, lo: 1570, hi: 1650, rank: 0, games: 30, kind: 'learner' },
      { player: 'beta', role: 'player', rating: 1598, lo: 1560, hi: 1640, rank: 0, games: 30, kind: 'baseline' },
      { player: 'gamma', role: 'player', rating: 1420, lo: 1380, hi: 1455, rank: 0, games: 30, kind: 'snapshot' },
    ]);
    server = await startServer({ bus, store, port: 0, leaderboard: () => board });
    // one finished Deal-or-No-Deal and one Countdown match, kept in the server's memory (played after it subscribed)
    const dond = defaultRegistry.env('deal-or-no-deal-v1');
    const dondParams = dond.resolveParams({});
    await runMatch({ env: dond, params: dondParams, seed: 3, matchId: 'dond-1', bus, agents: (seats) => seats.map((_, i) => randomAgent.create({ env: dond, params: dondParams, seed: i })) });
    const cd = defaultRegistry.env('countdown-v1');
    const cdParams = cd.resolveParams({ attempts: 4 });
    await runMatch({ env: cd, params: cdParams, seed: 5, matchId: 'cd-1', bus, agents: (seats) => seats.map((_, i) => randomAgent.create({ env: cd, params: cdParams, seed: i })) });
    // live Werewolf matches, one after another, slow enough to watch
    const ww = werewolf();
    const params = ww.resolveParams({ preset: 'arena' });
    loop = (async () => {
      for (let k = 0; !stop; k++) {
        const id = `ww-live-${k}`;
        liveIds.push(id);
        await runMatch({ env: ww, params, seed: 100 + k, matchId: id, bus, agents: (seats) => seats.map((_, i) => slowRandom(ww, params, 1000 * k + i, 40)) });
      }
    })();
    browser = await launchBrowser();
    browser.context.setDefaultTimeout(CEILING);
  });

  afterAll(async () => {
    stop = true;
    await loop;
    await browser?.close();
    await server?.close();
    recorder?.stop();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A page that records every socket.io frame it receives. */
  async function openPage(hash: string): Promise<{ page: Page; frames: string[] }> {
    const page = await browser.context.newPage();
    const frames: string[] = [];
    const errors: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + hash);
    (page as unknown as { errors: string[] }).errors = errors;
    return { page, frames };
  }
  /** Waits until `selector` matches exactly `n` elements (rendering happens on the next animation frame). */
  const waitCount = (page: Page, selector: string, n: number) =>
    page.waitForFunction(([sel, want]) => document.querySelectorAll(sel as string).length === want, [selector, n] as const, { timeout: CEILING });
  const pageErrors = (page: Page) => (page as unknown as { errors: string[] }).errors;

  test('the lobby lists live and recent matches, filterable by env', async () => {
    const { page } = await openPage('#/');
    await page.waitForSelector(`#live-matches tr.match-row[data-env="${WEREWOLF}"]`, { timeout: CEILING });
    await page.waitForSelector('#recent-matches tr.match-row[data-env="rock-paper-scissors-v1"]');
    await page.screenshot({ path: join(ARTIFACTS, 'lobby.png'), fullPage: true });
    await page.selectOption('#env-filter', 'rock-paper-scissors-v1');
    expect(await page.locator(`#live-matches tr.match-row[data-env="${WEREWOLF}"]`).count()).toBe(0);
    expect(await page.locator('#recent-matches tr.match-row').count()).toBeGreaterThanOrEqual(3);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('a live Werewolf match: moves arrive; no hidden role in the public DOM or socket frames', async () => {
    const { page, frames } = await openPage('#/');
    // watch a live match; should it end before the checks (a short game), take the next one
    let matchId = '';
    let checkedWhileLive = false;
    for (let attempt = 0; attempt < 4 && !checkedWhileLive; attempt++) {
      if (attempt) await page.goto(server.url + '#/');
      const row = page.locator(`#live-matches tr.match-row[data-env="${WEREWOLF}"] a.button`).first();
      await row.waitFor({ timeout: CEILING });
      await row.click();
      await page.waitForSelector('#ww-circle .seat');
      matchId = decodeURIComponent(page.url().split('#/match/')[1].split('?')[0]);
      expect(await page.locator('#ww-circle .seat').count()).toBe(8);
      const before = await page.locator('#timeline li').count();
      // moves arrive — or the match ends first (a short game on a slow machine): then take the next one
      await page.waitForFunction(
        (n) => document.querySelectorAll('#timeline li').length > n + 5 || (document.querySelector('#status')?.textContent ?? 'live') !== 'live',
        before,
        { timeout: CEILING },
      );
      // while the match is live, every role shown in the public view was revealed publicly
      // one snapshot of the DOM: roles shown, phase, live badge
      const dom = await page.evaluate(() => ({
        roles: [...document.querySelectorAll('#ww-circle .seat .role')].map((el) => el.textContent),
        phase: document.querySelector('#ww-phase')?.textContent ?? '',
        status: document.querySelector('#status')?.textContent ?? '',
      }));
      if (/win/.test(dom.phase) || dom.status !== 'live') continue;
      const shownRoles = dom.roles;
      await page.screenshot({ path: join(ARTIFACTS, 'werewolf-live.png'), fullPage: true });
      const revealed = new Set<number>();
      for (const e of recorder.events(matchId)) {
        if (e.type !== 'env' || e.visibility !== 'public') continue;
        const d = e.data as { dead?: number[]; roles?: string[]; seat?: number | null; role?: string };
        if (e.name === 'dawn' && d.roles) for (const s of d.dead ?? []) revealed.add(s);
        if (e.name === 'exile' && d.role && typeof d.seat === 'number') revealed.add(d.seat);
      }
      shownRoles.forEach((text, seat) => {
        if (!revealed.has(seat)) expect(`${seat}:${text}`).toBe(`${seat}:?`);
      });
      checkedWhileLive = true;
    }
    expect(checkedWhileLive).toBe(true);
    const truth = recorder.events(matchId);

    // socket frames: only public events, no seat roles, public observations only; the events
    // carry the public view's own numbering (0, 1, 2... in the order of the public log), so no
    // number counts hidden events
    const publicLog = truth.filter((e) => e.visibility === 'public');
    let events = 0;
    let observations = 0;
    for (const f of frames) {
      expect(f).not.toMatch(/"match\.created"|"visibility":"omniscient"|"visibility":\{"(seat|team)"/);
      const payload = socketIoPayload(f);
      if (!payload) continue;
      const msgs = payload.flatMap((p) => (p && typeof p === 'object' ? [p as Record<string, unknown>] : []));
      for (const m of msgs) {
        const evs: MatchEvent[] = m.event ? [m.event as MatchEvent] : Array.isArray(m.events) ? (m.events as MatchEvent[]) : [];
        for (const e of evs) {
          if (e.matchId !== matchId) continue;
          events++;
          expect(e.visibility).toBe('public');
          // the event as logged, plus the env's words for it (env events: always; actions: the env's label)
          const { caption, ...logged } = e as MatchEvent & { caption?: string };
          expect({ ...logged, time: 0 }).toEqual({ ...publicLog[e.seq], seq: e.seq, time: 0 });
          if (e.type === 'env') expect(typeof caption).toBe('string');
        }
        const obs = [...(Array.isArray(m.observations) ? (m.observations as { obs: Record<string, unknown> }[]) : []), ...('obs' in m && m.view ? [m as { obs: Record<string, unknown> }] : [])];
        for (const o of obs) {
          observations++;
          expect(o.obs.view).toBe('public');
          expect(o.obs.role).toBeNull();
          expect(o.obs.secret).toBeNull();
          expect(o.obs.teamLog).toBeNull();
          const pub = o.obs.public as { phase: string; roles: unknown };
          if (pub.phase !== 'over') expect(o.obs.roles ?? pub.roles).toBeNull();
        }
      }
    }
    expect(events).toBeGreaterThan(10);
    expect(observations).toBeGreaterThan(1);
    expect(pageErrors(page)).toEqual([]);

    // the omniscient view of a live match is refused on this server
    await page.goto(`${server.url}#/match/${encodeURIComponent(liveIds[liveIds.length - 1])}?view=omniscient`);
    await page.waitForSelector('#join-error');
    expect(await page.locator('#join-error').textContent()).toMatch(/not allowed/i);
    await page.close();
  });

  test('replay a stored match: step, scrub and play', async () => {
    const { page } = await openPage('#/match/rps-1');
    await page.waitForSelector('#timeline li');
    const total = recorder.events('rps-1').filter((e) => e.visibility === 'public').length;
    await expect(page.locator('#ctl-label').textContent()).resolves.toBe(`event ${total} / ${total}`);
    await page.click('#ctl-start');
    await waitCount(page, '#timeline li', 0);
    for (let i = 0; i < 3; i++) await page.click('#ctl-step');
    await expect(page.locator('#ctl-label').textContent()).resolves.toBe(`event 3 / ${total}`);
    await waitCount(page, '#timeline li', 3);
    await page.click('#ctl-back');
    await waitCount(page, '#timeline li', 2);
    await page.locator('#ctl-scrub').fill('6');
    await expect(page.locator('#ctl-label').textContent()).resolves.toBe(`event 6 / ${total}`);
    await waitCount(page, '#timeline li', 6);
    await page.screenshot({ path: join(ARTIFACTS, 'replay-step.png'), fullPage: true });
    await page.selectOption('#ctl-speed', '10');
    await page.click('#ctl-play');
    await page.waitForFunction(() => Number(document.querySelectorAll('#timeline li').length) > 8, undefined, { timeout: CEILING });
    // the replay shows the same events as the live view had (same projection), numbered 0, 1, 2...
    const seqs = (await page.locator('#timeline li').evaluateAll((lis) => lis.map((li) => Number((li as HTMLElement).dataset.seq))));
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const types = await page.locator('#timeline li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.type));
    expect(types).toEqual(recorder.events('rps-1').filter((e) => e.visibility === 'public').map((e) => e.type).slice(0, types.length));
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('the leaderboard shows intervals, ranks, rating history and training curves', async () => {
    const { page } = await openPage('#/leaderboard');
    await page.waitForSelector('#leaderboard table.board tbody tr');
    // overlapping intervals alone make no tie: ranks follow the ratings
    const ranks = await page.locator('#leaderboard td.rank').allTextContents();
    expect(ranks).toEqual(['1', '2', '3']);
    const players = await page.locator('#leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.player));
    expect(players).toEqual(['alpha', 'beta', 'gamma']);
    expect(await page.locator('#leaderboard .ci-bar').count()).toBe(3);
    await page.waitForFunction(() => {
      const c = (window as unknown as { Chart?: { getChart(id: string): { data: { datasets: unknown[] } } | undefined } }).Chart;
      return !!c && ['rating-chart', 'return-chart', 'winrate-chart'].every((id) => (c.getChart(id)?.data.datasets.length ?? 0) > 0);
    });
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png'), fullPage: true });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('Deal-or-No-Deal: the pool for everyone, values only where the view allows', async () => {
    const values = async (page: Page) => page.locator('#dond-values tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td.num')].slice(0, 3).map((td) => td.textContent)));
    const { page } = await openPage('#/match/dond-1');
    await page.waitForSelector('#dond-pool');
    expect(await page.locator('#dond-pool').textContent()).toMatch(/\d books?, \d hats?, \d balls?/);
    expect((await values(page)).flat()).toEqual(Array(6).fill('hidden'));
    await page.goto(`${server.url}#/match/dond-1?view=seat:0`);
    await page.waitForFunction(() => document.querySelector('#view-select') && (document.querySelector('#view-select') as HTMLSelectElement).value === 'seat:0' && !!document.querySelector('#dond-values'));
    await page.waitForFunction(() => !/hidden/.test(document.querySelector('#dond-values tbody tr')?.textContent ?? 'hidden'));
    const seat0 = await values(page);
    expect(seat0[0].every((v) => /^\d+$/.test(v ?? ''))).toBe(true);
    expect(seat0[1]).toEqual(['hidden', 'hidden', 'hidden']);
    await page.goto(`${server.url}#/match/dond-1?view=omniscient`);
    await page.waitForFunction(() => !/hidden/.test(document.querySelector('#dond-values')?.textContent ?? 'hidden'));
    expect((await values(page)).flat().every((v) => /^\d+$/.test(v ?? ''))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'dond-omniscient.png'), fullPage: true });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('Countdown: numbers, target and each attempt with its score', async () => {
    const { page } = await openPage('#/match/cd-1');
    await page.waitForSelector('#cd-target');
    const result = recorder.events('cd-1').find((e) => e.type === 'env' && e.name === 'result');
    const data = (result as { data: { numbers: number[]; target: number; attempts: { score: number }[] } } | undefined)?.data;
    expect(data).toBeDefined();
    expect(await page.locator('#cd-target strong').textContent()).toBe(String(data!.target));
    expect(await page.locator('#cd-numbers .tile').allTextContents()).toEqual(data!.numbers.map(String));
    expect(await page.locator('#cd-attempts tbody tr').count()).toBe(4);
    expect(await page.locator('#cd-attempts td.score').allTextContents()).toEqual(data!.attempts.map((a) => String(a.score)));
    await page.screenshot({ path: join(ARTIFACTS, 'countdown.png'), fullPage: true });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
