/**
 * A human plays in Chromium (Debian chromium through playwright-core): a whole
 * Deal-or-No-Deal and a whole Countdown game against bots, through #/play/<token>. The page
 * receives only its seat's view; legal actions are buttons, open answers go in a text box.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { MatchEvent } from '../../src/core/events';
import { runMatch } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import { ARTIFACTS, CHROMIUM, launchBrowser, socketIoPayload } from './browser';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

describeBrowser('a human seat in chromium', () => {
  let server: ArenaServer;
  let bus: EventBus;
  let rec: MemoryRecorder;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    bus = new EventBus();
    rec = new MemoryRecorder(bus);
    server = await startServer({ bus, port: 0, play: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rec?.stop();
  });

  function human(label: string): { agent: Agent; token: string } {
    const { slot, token } = server.play!.issue(label, 'human');
    return { agent: new RemoteAgent(server.play!, slot, 'human', label), token };
  }

  /** Opens the seat page, recording the /play frames it receives and page errors. */
  async function open(token: string): Promise<{ page: Page; frames: string[]; errors: string[] }> {
    const page = await browser.context.newPage();
    const frames: string[] = [];
    const errors: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}#/play/${token}`);
    return { page, frames, errors };
  }

  /** The events the page's /play socket received for a match. */
  function playEvents(frames: string[], matchId: string): MatchEvent[] {
    const out: MatchEvent[] = [];
    for (const f of frames) {
      const m = /^42\/play,(.*)$/s.exec(f);
      const payload = m ? socketIoPayload(`42${m[1]}`) : null;
      if (!payload) continue;
      const [name, body] = payload as [string, { matchId?: string; event?: MatchEvent; events?: MatchEvent[] }];
      if (body?.matchId !== matchId) continue;
      if (name === 'seat') out.splice(0, out.length, ...(body.events ?? []));
      if (name === 'event' && body.event) out.push(body.event);
    }
    return out;
  }

  test('Deal-or-No-Deal: the human negotiates with labelled buttons, in the env\'s words, until the game ends', async () => {
    const env = defaultRegistry.env('deal-or-no-deal-v1');
    const params = env.resolveParams({});
    const seat = human('dond-human');
    const bot = defaultRegistry.agentFactory('fair-split', env.meta.id).create({ env, params, seed: 1 });
    const { page, frames, errors } = await open(seat.token);
    const match = runMatch({ env, params, seed: 7, bus, matchId: 'human-dond', deadlineMs: 60_000, agents: [seat.agent, bot] });
    // the badge is green while connected
    await page.waitForSelector('#play-conn.connected');
    expect(await page.locator('#play-conn').textContent()).toBe('connected');
    expect(await page.locator('#play-conn').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(47, 158, 68)');
    const values = env.observe(env.init(params, 7), 0).values as number[];
    const worth = (label: string) => {
      const m = /^keep (\d+) books?, (\d+) hats? and (\d+) balls?$/.exec(label);
      return m ? values[0] * Number(m[1]) + values[1] * Number(m[2]) + values[2] * Number(m[3]) : null;
    };
    let clicks = 0;
    for (;;) {
      // one read of the page: the result, or this turn's buttons (the page may redraw between two reads)
      const turn = await page.waitForFunction(() => {
        if (document.querySelector('#play-result')) return { over: true, buttons: [] as { label: string; note: string; text: string }[] };
        const buttons = [...document.querySelectorAll('#play-actions button.action')].map((b) => ({ label: (b as HTMLElement).dataset.label ?? '', note: (b as HTMLElement).dataset.note ?? '', text: (b as HTMLElement).innerText }));
        return buttons.length ? { over: false, buttons } : null;
      }, undefined, { timeout: 30_000 });
      const { over, buttons } = (await turn.jsonValue())!;
      if (over) break;
      expect(buttons.length).toBeGreaterThan(0);
      // every button: the env's name for the action and what it is worth to this seat
      for (const b of buttons) {
        expect(b.label).toMatch(/^(agree|keep \d books?, \d hats? and \d balls?)$/);
        if (b.label === 'agree') expect(b.note).toMatch(/^you get \d books?, \d hats? and \d balls?: worth \d+ to you$/);
        else expect(b.note).toBe(`worth ${worth(b.label)} to you`);
        expect(b.text).toBe(`${b.label}\n${b.note}`);
      }
      // agree once an offer is on the table, else ask for the most valuable share
      const best = buttons.filter((b) => b.label !== 'agree').sort((a, b) => worth(b.label)! - worth(a.label)!)[0];
      const pick = buttons.some((b) => b.label === 'agree') && clicks > 0 ? 'agree' : best.label;
      if (clicks === 0) await page.screenshot({ path: join(ARTIFACTS, 'play-dond-turn.png'), fullPage: true });
      if (clicks === 1) await page.screenshot({ path: join(ARTIFACTS, 'play-dond-offer.png'), fullPage: true });
      const shownEvents = await page.locator('#play-events li').count();
      await page.click(`#play-actions button.action[data-label="${pick}"]`);
      clicks++;
      // the move is shown (or the game is over) before the next turn is read
      await page.waitForFunction((n) => !document.querySelector('#play-actions') || document.querySelectorAll('#play-events li').length > n, shownEvents);
      if (clicks > 20) throw new Error('too many turns');
    }
    const result = await match;
    expect(result.code).toBe('ok');
    expect(result.faults).toEqual([]);
    expect(clicks).toBeGreaterThan(0);
    const shown = await page.locator('#play-result').textContent();
    expect(shown).toBe(`Game over: ${result.outcome}. Your return: ${result.returns[0]} (P1 ${result.returns[1]}).`);
    // the events in the env's words: actions by name, offers and the end as the env says them (no raw ids or JSON)
    await page.waitForFunction(() => document.querySelector('#play-events li[data-type="match.ended"]'));
    const rows = await page.locator('#play-events li').evaluateAll((lis) => lis.map((li) => [(li as HTMLElement).dataset.type ?? '', li.querySelector('.edesc')?.textContent ?? '']));
    const actions = rows.filter(([t]) => t === 'action').map(([, d]) => d);
    expect(actions.length).toBe(result.length);
    for (const d of actions) expect(d).toMatch(/^P[01]: (agree|keep \d books?, \d hats? and \d balls?)$/);
    const envRows = rows.filter(([t]) => t === 'env').map(([, d]) => d);
    expect(envRows.some((d) => /^P0 offers to keep .*; the partner would get the rest\.$/.test(d))).toBe(true);
    for (const [, d] of rows) expect(d).not.toMatch(/[{}]|^P\d: \d+$/);
    expect(await page.locator('#play-rules-text').textContent()).toMatch(/^Two negotiators split a pool of/);
    await page.screenshot({ path: join(ARTIFACTS, 'play-dond-over.png'), fullPage: true });
    // only seat 0's view reached the page: its own values, never the opponent's; events numbered in its own view
    const got = playEvents(frames, 'human-dond');
    expect(got.map((e) => e.seq)).toEqual(got.map((_, i) => i));
    for (const e of got) expect(e.visibility === 'public' || JSON.stringify(e.visibility) === '{"seat":0}').toBe(true);
    for (const f of frames) expect(f).not.toMatch(/"allValues":\[|"visibility":"omniscient"|"match\.created"/);
    const text = await page.locator('#play-text').textContent();
    expect(text).toMatch(/Your values/);
    expect(text).not.toMatch(/Seat 1 values/);
    // after the game the page stays useful: the replay opens, the lobby lists the game
    await page.click('#play-replay');
    await page.waitForSelector('#dond-pool');
    await page.goBack();
    await page.waitForSelector('#play-result');
    await page.click('#play-lobby');
    await page.waitForSelector('#recent-matches tr[data-match-id="human-dond"]');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('Countdown: the human solver types expressions against a bot challenger', async () => {
    const env = defaultRegistry.env('countdown-v1');
    const params = env.resolveParams({ roles: 'challenger-solver', attempts: 2 });
    const seat = human('cd-human');
    const challenger = defaultRegistry.agentFactory('random-valid', env.meta.id).create({ env, params, seed: 3 });
    const { page, errors } = await open(seat.token);
    const match = runMatch({ env, params, seed: 11, bus, matchId: 'human-cd', deadlineMs: 60_000, agents: [challenger, seat.agent] });
    const typed: string[] = [];
    for (;;) {
      await page.waitForSelector('#play-answer, #play-result', { timeout: 30_000 });
      if (await page.locator('#play-result').count()) break;
      expect(await page.locator('#play-format').textContent()).toMatch(/arithmetic expression/);
      const text = (await page.locator('#play-text').textContent()) ?? '';
      const numbers = /Numbers: ([\d ]+)\./.exec(text)![1].split(' ').map(Number);
      const expr = typed.length === 0 ? `${numbers[0]} + ${numbers[1]}` : `${numbers[0]} * ${numbers[1]}`;
      await page.fill('#play-answer', expr);
      if (!typed.length) await page.screenshot({ path: join(ARTIFACTS, 'play-countdown-turn.png'), fullPage: true });
      await page.click('#play-submit');
      typed.push(expr);
      await page.waitForFunction(() => !document.querySelector('#play-answer') || (document.querySelector('#play-answer') as HTMLTextAreaElement).value === '', undefined, { timeout: 30_000 });
      if (typed.length > 5) throw new Error('too many attempts');
    }
    const result = await match;
    expect(result.code).toBe('ok');
    expect(typed).toHaveLength(2);
    expect((result.summary as { attempts: { answer: string }[] }).attempts.map((a) => a.answer)).toEqual(typed);
    expect(await page.locator('#play-result').textContent()).toContain(`Your return: ${result.returns[1]}`);
    await page.screenshot({ path: join(ARTIFACTS, 'play-countdown-over.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a wrong token shows an error instead of a seat', async () => {
    const { page } = await open('not-a-real-token');
    await page.waitForSelector('#play-error');
    expect(await page.locator('#play-error').textContent()).toMatch(/not valid/);
    await page.close();
  });
});
