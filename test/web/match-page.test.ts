/**
 * The match page and the lobby in Chromium, as a newcomer meets them (issue 16): one line per
 * lobby row with teams folded, "watch" on a game that just ended replays it from the start, the
 * view menu offers what the server allows and says why not the rest, the env's words in the
 * event list (no raw action ids or JSON), the votes panel after exiles, an event box that
 * follows the replay, Countdown's tiles and scoring explained, renderers that draw from the
 * observation and patch the page in place. Saves a screenshot of the lobby and of a live game
 * of every env to test-artifacts/web/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'playwright-core';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { closeSharedSandbox, defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { Params } from '../../src/core/params';
import { runMatch, type MatchResult } from '../../src/match/runner';
import { randomAgent } from '../../agents/random';
import { scriptedAgent } from '../../agents/scripted';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import type { CodeRepairObservation } from '../../envs/code-repair';
import { ARTIFACTS, CHROMIUM, launchBrowser } from './browser';

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

/** A match whose agents play `holdAfter` decisions, then wait until `release()`: live for as long as a test needs. */
interface Held {
  done: Promise<MatchResult>;
  /** Resolves once the match is holding (live, mid-game). */
  holding: Promise<void>;
  release(): void;
}

function holdMatch(bus: EventBus, envId: string, raw: Record<string, unknown>, seed: number, matchId: string, holdAfter: number, make?: (env: Env, params: Params, seat: number) => Agent): Held {
  const env = defaultRegistry.env(envId);
  const params = env.resolveParams(raw);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let holdingResolve!: () => void;
  const holding = new Promise<void>((r) => (holdingResolve = r));
  let decisions = 0;
  const wrap = (inner: Agent): Agent => ({
    name: inner.name,
    act: async (obs, legal, ctx) => {
      if (++decisions > holdAfter) {
        holdingResolve();
        await gate;
      }
      return inner.act(obs, legal, ctx);
    },
  });
  const done = runMatch({
    env,
    params,
    seed,
    matchId,
    bus,
    effects: defaultRegistry.effects(),
    agents: (seats) => seats.map((_, i) => wrap(make ? make(env, params, i) : randomAgent.create({ env, params, seed: seed * 10 + i }))),
  });
  return { done, holding, release };
}

describeBrowser('the match page and the lobby (issue 16)', () => {
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const bus = new EventBus();
  const recorder = new MemoryRecorder(bus);
  const held: Record<string, Held> = {};

  beforeAll(async () => {
    server = await startServer({ bus, port: 0 });
    // a finished Werewolf game to replay
    const ww = defaultRegistry.env('werewolf-v1');
    const wwParams = ww.resolveParams({ preset: 'arena' });
    await runMatch({ env: ww, params: wwParams, seed: 11, matchId: 'ww-done', bus, agents: (seats) => seats.map((_, i) => randomAgent.create({ env: ww, params: wwParams, seed: 110 + i })) });
    // live games, held mid-way: Werewolf with a team of six identical agents, Countdown (UK tiles), Deal-or-No-Deal, code repair
    const state = ww.init(wwParams, 5);
    const teams = ww.seats(state).map((s) => s.team);
    held.ww = holdMatch(bus, 'werewolf-v1', { preset: 'arena' }, 5, 'ww-live', 60, (env, params, i) => ({ ...randomAgent.create({ env, params, seed: 50 + i }), name: teams[i] === 'werewolves' ? 'wolf-bot' : 'villager-bot' }));
    held.cd = holdMatch(bus, 'countdown-v1', { rules: 'uk', attempts: 3 }, 7, 'cd-live', 1);
    held.dond = holdMatch(bus, 'deal-or-no-deal-v1', { protocol: 'openspiel' }, 3, 'dond-live', 3);
    const fixed = 'function collatzSteps(n) {\n  let steps = 0;\n  while (n !== 1) {\n    n = n % 2 === 0 ? n / 2 : 3 * n + 1;\n    steps++;\n  }\n  return steps;\n}';
    held.cr = holdMatch(bus, 'code-repair-v1', { task: 'js/collatz-steps', variant: 0, rounds: 1 }, 1, 'cr-live', 1, (_env, _params, i) =>
      i === 0 ? scriptedAgent('fixer', (o: CodeRepairObservation) => (o.revisions.length > 1 ? o.candidate! : fixed)) : scriptedAgent('auditor', () => JSON.stringify([{ input: [1] }, { input: [6], expected: 1 }])),
    );
    await Promise.all(Object.values(held).map((x) => x.holding));
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    for (const x of Object.values(held)) x.release();
    await Promise.all(Object.values(held).map((x) => x.done.catch(() => undefined)));
    await browser?.close();
    await server?.close();
    recorder.stop();
    await closeSharedSandbox();
  });

  async function open(hash: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + hash);
    return { page, errors };
  }
  const label = (page: Page) => page.locator('#ctl-label').textContent();

  test('the lobby: one line per match, a team of identical agents listed once (no counts in a hidden-role game); "watch" asks for a replay from the start', async () => {
    const { page, errors } = await open('#/');
    const row = page.locator('#live-matches tr.match-row[data-match-id="ww-live"]');
    await row.waitFor({ timeout: 15_000 });
    await page.waitForSelector('#recent-matches tr.match-row[data-match-id="ww-done"]');
    // counts would say which agent fills the wolf team (issue 23): the server lists each agent once
    expect(await row.locator('td.agents').textContent()).toBe('villager-bot · wolf-bot');
    expect(await row.locator('a.button').getAttribute('href')).toBe('#/match/ww-live?watch=1');
    // every row is one line high, the long ones (eight agents, "no-agreement") included
    const heights = await page.locator('tr.match-row').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThanOrEqual(5);
    const line = Math.min(...heights);
    expect(line).toBeLessThan(40);
    for (const hgt of heights) expect(hgt).toBeLessThanOrEqual(line + 1);
    await page.screenshot({ path: join(ARTIFACTS, 'lobby.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('"watch" on a game that ended meanwhile replays it from its first event', async () => {
    const env = defaultRegistry.env('deal-or-no-deal-v1');
    const params = env.resolveParams({ protocol: 'openspiel' });
    await runMatch({ env, params, seed: 9, matchId: 'dond-watch', bus, agents: (seats) => seats.map((_, i) => randomAgent.create({ env, params, seed: 90 + i })) });
    const total = recorder.events('dond-watch').filter((e) => e.visibility === 'public').length;
    const { page, errors } = await open('#/match/dond-watch?watch=1');
    await page.waitForSelector('#replay-note:not([hidden])');
    expect(await page.locator('#replay-note').textContent()).toMatch(/ended before you arrived: it is replayed from the start/);
    // playing from an early event, on to the end
    const first = Number(/event (\d+)/.exec((await label(page)) ?? '')?.[1]);
    expect(first).toBeLessThan(total);
    await page.waitForFunction((n) => document.querySelector('#ctl-label')?.textContent === `event ${n} / ${n}`, total, { timeout: 30_000 });
    // opened any other way (a replay link), a finished game shows its end at once, without the note
    await page.goto(`${server.url}#/match/dond-watch`);
    await page.waitForFunction((n) => document.querySelector('#ctl-label')?.textContent === `event ${n} / ${n}`, total);
    expect(await page.locator('#replay-note').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a live game of every env, with the rules in force; Countdown explains its tiles and scoring', async () => {
    for (const [id, shot, ready] of [
      ['ww-live', 'werewolf-live.png', '#ww-circle .seat'],
      ['cd-live', 'countdown-live.png', '#cd-numbers .tile'],
      ['dond-live', 'dond-live.png', '#dond-offers tbody tr'],
      ['cr-live', 'code-repair-live.png', '#cr-program'],
    ] as const) {
      const { page, errors } = await open(`#/match/${id}`);
      await page.waitForSelector(ready, { timeout: 20_000 });
      expect(await page.locator('#status').textContent()).toBe('live');
      expect((await page.locator('#rules-text').textContent())?.length).toBeGreaterThan(40);
      if (id === 'cd-live') {
        expect(await page.locator('#rules-text').textContent()).toMatch(/large tiles \(25, 50, 75, 100, one each\) and small tiles \(1 to 10, two each\).*Scoring: 10 exact, 7 within 5, 5 within 10/);
        expect(await page.locator('#cd-legend').textContent()).toMatch(/large tile \(25, 50, 75, 100\).*small tile \(1 to 10\)/);
        const tiles = await page.locator('#cd-numbers .tile').evaluateAll((els) => els.map((e) => ({ n: Number(e.textContent), large: e.classList.contains('large') })));
        expect(tiles.length).toBe(6);
        for (const t of tiles) expect(t.large).toBe(t.n > 10);
      }
      // every env event in the env's words, never its data as JSON
      for (const w of await page.locator('#timeline li[data-type="env"] .edesc').allTextContents()) expect(w).not.toMatch(/^[\w-]+ \{|^\{/);
      if (id === 'dond-live') {
        const words = await page.locator('#timeline li[data-type="env"] .edesc').allTextContents();
        expect(words.length).toBeGreaterThan(0);
        for (const w of words) expect(w).toMatch(/^P[01] offers to keep \d+ books?, \d+ hats? and \d+ balls?/);
      }
      // the newest event is in sight in the list
      await page.waitForFunction(() => {
        const list = document.querySelector('#timeline');
        const last = list?.lastElementChild;
        return !!list && !!last && last.getBoundingClientRect().bottom <= list.getBoundingClientRect().bottom + 1;
      });
      await page.screenshot({ path: join(ARTIFACTS, shot), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  test('views: a live match offers the public view only and says why; the others open when it ends', async () => {
    const { page, errors } = await open('#/match/ww-live');
    await page.waitForSelector('#ww-circle .seat');
    const options = () => page.locator('#view-select option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).disabled, o.textContent]));
    const live = await options();
    expect(live.map((o) => o[0])).toEqual(['public', 'omniscient', ...Array.from({ length: 8 }, (_, i) => `seat:${i}`)]);
    expect(live[0]).toEqual(['public', false, 'public']);
    for (const o of live.slice(1)) {
      expect(o[1]).toBe(true);
      expect(o[2]).toMatch(/ — once the match ends$/);
    }
    expect(await page.locator('#view-note').textContent()).toMatch(/not allowed on this server \(allowed once the match has ended/);
    held.ww.release();
    await held.ww.done;
    await page.waitForFunction(() => [...document.querySelectorAll('#view-select option')].every((o) => !(o as HTMLOptionElement).disabled), undefined, { timeout: 20_000 });
    expect(await page.locator('#view-note').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('werewolf: the env’s words in the events (no raw ids or JSON), votes after exiles, an event box that follows the replay', async () => {
    const { page, errors } = await open('#/match/ww-done?view=omniscient');
    await page.waitForSelector('#timeline li[data-type="action"]');
    const actions = await page.locator('#timeline li[data-type="action"] .edesc').allTextContents();
    expect(actions.length).toBeGreaterThan(10);
    for (const a of actions) expect(a).not.toMatch(/^P\d+: -?\d+$/);
    expect(actions.join('\n')).toMatch(/^P\d: (vote|accuse|kill|check|protect|bid|claim|defend|reveal) /m);
    for (const w of await page.locator('#timeline li[data-type="env"] .edesc').allTextContents()) expect(w).not.toMatch(/^\{|^\w+ \{/);
    // the omniscient view knows the secret votes of the latest vote
    expect(await page.locator('#ww-votes li').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'werewolf-omniscient.png'), fullPage: true });

    await page.goto(`${server.url}#/match/ww-done`);
    await page.waitForSelector('#ww-circle .seat');
    // public view at the end: the exile result and why the votes are not shown, never "no vote yet"
    expect(await page.locator('#ww-votes-none').count()).toBe(0);
    expect(await page.locator('#ww-vote-result').textContent()).toMatch(/exiled/);
    expect(await page.locator('#ww-votes-secret').textContent()).toMatch(/Votes are secret in these rules/);

    // the event box: a selected event, then the latest shown once the replay is scrubbed back past it
    const k = 12;
    await page.click(`#timeline li[data-seq="${k}"]`);
    await page.waitForFunction((seq) => document.querySelector('#event-detail h3')?.textContent === `Selected event #${seq}`, k);
    expect(await page.locator('#event-words').textContent()).toBe(await page.locator(`#timeline li[data-seq="${k}"] .edesc`).textContent());
    await page.locator('#ctl-scrub').fill(String(k));
    await page.waitForFunction((seq) => document.querySelector('#event-detail h3')?.textContent === `Latest event #${seq}`, k - 1);
    await page.locator('#ctl-scrub').fill(String(k + 5));
    await page.waitForFunction((seq) => document.querySelector('#event-detail h3')?.textContent === `Latest event #${seq}`, k + 4);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('renderers draw from the observation, and frames patch the page in place', async () => {
    const { page, errors } = await open('#/match/ww-done');
    await page.waitForSelector('#ww-circle .seat');
    // the renderer comes from the env's folder (envs/werewolf/web/) with its own styles, and the page
    // modules it imports by their repository path load once, from /js/ (index.html's import map)
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    expect(loaded).toEqual(expect.arrayContaining(['/envs/werewolf/web/renderer.js', '/envs/werewolf/web/renderer.css', '/js/dom.js']));
    expect(loaded.filter((p) => p.startsWith('/web/'))).toEqual([]);
    expect(await page.locator('#ww-circle').evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('50%');
    expect(await page.locator('#renderer').getAttribute('data-renderer')).toBe('werewolf');
    // an env id names a renderer's folder only when it can be one: never another path of the site
    const urls = await page.evaluate(async () => {
      const { rendererUrl } = (await import('/js/renderers/index.js' as string)) as { rendererUrl(id: string): string | null };
      return ['werewolf-v1', 'kuhn-poker', '../../vendor/x-v1', '/js/app', 'Werewolf-v1', 'a?b', ''].map(rendererUrl);
    });
    expect(urls).toEqual(['/envs/werewolf/web/renderer.js', '/envs/kuhn-poker/web/renderer.js', null, null, null, null, null]);
    await page.locator('#ctl-scrub').fill('20');
    await page.waitForFunction(() => document.querySelector('#ctl-label')?.textContent?.startsWith('event 20 /'));
    const keep = [await page.$('#ww-circle [data-seat="0"]'), await page.$('#timeline li'), await page.$('#ww-talk'), await page.$('#ww-phase')].filter((x): x is ElementHandle<HTMLElement | SVGElement> => x !== null);
    expect(keep.length).toBe(4);
    for (let i = 0; i < 6; i++) await page.click('#ctl-step');
    // the frame after the last step: 26 rows, the last one event #25
    await page.waitForFunction(() => document.querySelectorAll('#timeline li').length === 26 && (document.querySelector('#timeline li:last-child') as HTMLElement | null)?.dataset.seq === '25');
    for (const el of keep) expect(await el.evaluate((n) => n.isConnected)).toBe(true);
    expect(await page.evaluate((n) => n === document.querySelector('#ww-circle [data-seat="0"]'), keep[0])).toBe(true);

    // the renderer alone, given the last observation and no event at all, draws the game as it ended
    const drawn = await page.evaluate(async () => {
      const body = (await (await fetch('/api/matches/ww-done/events?view=public')).json()) as { observations: { obs: unknown; step: number }[] };
      const last = body.observations[body.observations.length - 1];
      const { renderer: werewolfRenderer } = (await import('/envs/werewolf/web/renderer.js' as string)) as { renderer: { render(el: HTMLElement, ctx: unknown): void } };
      const el = document.createElement('div');
      const none = () => [];
      werewolfRenderer.render(el, { obs: last.obs, step: last.step, view: 'public', seat: null, live: false, match: null, env: 'werewolf-v1', agents: [], roles: null, toAct: [], returns: null, ended: null, rules: null, named: none, told: none });
      return { seats: el.querySelectorAll('.seat').length, phase: el.querySelector('#ww-phase')?.textContent, result: el.querySelector('#ww-vote-result')?.textContent, deaths: el.querySelectorAll('#ww-deaths li').length };
    });
    const pub = recorder.events('ww-done').filter((e) => e.type === 'env' && e.visibility === 'public');
    const deaths = pub.reduce((n, e) => n + (e.type === 'env' && e.name === 'dawn' ? (e.data.dead as number[]).length : e.type === 'env' && e.name === 'exile' && e.data.seat !== null ? 1 : 0), 0);
    expect(drawn).toEqual({ seats: 8, phase: expect.stringMatching(/win$|draw$/), result: expect.stringMatching(/exiled/), deaths });
    expect(errors).toEqual([]);
    await page.close();
  });
});
