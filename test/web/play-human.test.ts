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
import { defaultRegistry } from '../../src/catalog';
import type { Agent } from '../../src/core/agent';
import type { MatchEvent } from '../../src/core/events';
import { runMatch } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../src/server/start-server';
import { RemoteAgent } from '../../src/server/play/remote-agent';
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

  test('Deal-or-No-Deal: the human negotiates with buttons until the game ends', async () => {
    const env = defaultRegistry.env('deal-or-no-deal-v1');
    const params = env.resolveParams({});
    const seat = human('dond-human');
    const bot = defaultRegistry.agentFactory('fair-split', env.meta.id).create({ env, params, seed: 1 });
    const { page, frames, errors } = await open(seat.token);
    const match = runMatch({ env, params, seed: 7, bus, matchId: 'human-dond', deadlineMs: 60_000, agents: [seat.agent, bot] });
    let clicks = 0;
    for (;;) {
      // one read of the page: the result, or this turn's buttons (the page may redraw between two reads)
      const turn = await page.waitForFunction(() => {
        if (document.querySelector('#play-result')) return { over: true, labels: [] as string[] };
        const labels = [...document.querySelectorAll('#play-actions button.action')].map((b) => (b as HTMLElement).dataset.label ?? '');
        return labels.length ? { over: false, labels } : null;
      }, undefined, { timeout: 30_000 });
      const { over, labels } = (await turn.jsonValue())!;
      if (over) break;
      expect(labels.length).toBeGreaterThan(0);
      for (const l of labels) expect(l).toMatch(/^(agree|keep \d books?, \d hats? and \d balls?)$/);
      // agree once an offer is on the table, else ask for everything we value
      const pick = labels.includes('agree') && clicks > 0 ? 'agree' : labels[labels.length - 1];
      if (clicks === 0) await page.screenshot({ path: join(ARTIFACTS, 'play-dond-turn.png'), fullPage: true });
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
    expect(shown).toContain(`Game over: ${result.outcome}`);
    expect(shown).toContain(`Your return: ${result.returns[0]}`);
    await page.screenshot({ path: join(ARTIFACTS, 'play-dond-over.png'), fullPage: true });
    // only seat 0's view reached the page: its own values, never the opponent's; events numbered in its own view
    const got = playEvents(frames, 'human-dond');
    expect(got.map((e) => e.seq)).toEqual(got.map((_, i) => i));
    for (const e of got) expect(e.visibility === 'public' || JSON.stringify(e.visibility) === '{"seat":0}').toBe(true);
    for (const f of frames) expect(f).not.toMatch(/"allValues":\[|"visibility":"omniscient"|"match\.created"/);
    const text = await page.locator('#play-text').textContent();
    expect(text).toMatch(/Your values/);
    expect(text).not.toMatch(/Seat 1 values/);
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
