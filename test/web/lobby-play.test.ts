/**
 * "Play" from the lobby in Chromium (Debian chromium through playwright-core): the visitor
 * picks Countdown as the solver against a bot challenger in the lobby's play panel, clicks
 * play, lands on the seat page (#/play/<token>) and plays the game to its end, while a
 * spectator's lobby lists the game live. Bad params are refused in the env's row; a server
 * without --allow-play shows no panel.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { MatchEnded } from '../../src/core/events';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { ARTIFACTS, CHROMIUM, launchBrowser } from './browser';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

describeBrowser('play from the lobby in chromium', () => {
  let server: ArenaServer;
  let bus: EventBus;
  let rec: MemoryRecorder;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    bus = new EventBus();
    rec = new MemoryRecorder(bus);
    server = await startServer({ bus, port: 0, lobbyPlay: { registry: defaultRegistry, maxMatches: 2, idleMs: 60_000 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rec?.stop();
  });

  test('the visitor clicks play on Countdown, plays the solver against a bot, and spectators see it live', async () => {
    const spectator = await browser.context.newPage();
    await spectator.goto(`${server.url}#/`);
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    spectator.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}#/`);
    const row = page.locator('#play-panel tr.play-env[data-env="countdown-v1"]');
    await row.waitFor({ timeout: 30_000 });
    expect(await page.locator('#play-limits').textContent()).toMatch(/0 of at most 2 games/);
    // Countdown's default is a lone solver; ask for a challenger: the row fetches the seats again
    expect(await row.locator('.play-opponents').textContent()).toMatch(/none/);
    await row.locator('.play-params').fill('{"roles":"challenger-solver","attempts":1}');
    await row.locator('.play-params').press('Tab'); // leaving the box commits it
    await page.waitForFunction(() => document.querySelectorAll('#play-panel tr[data-env="countdown-v1"] .play-seat option').length === 2, undefined, { timeout: 30_000 });
    await row.locator('.play-seat').selectOption('1');
    const opponent = row.locator('select.play-opponent[data-seat="0"]');
    expect(await opponent.locator('option').allTextContents()).toContain('random-valid');
    await opponent.selectOption('random-valid');
    await page.screenshot({ path: join(ARTIFACTS, 'lobby-play-panel.png'), fullPage: true });
    await row.locator('button.play-start').click();

    // the page went to the seat's link and the bot's puzzle reaches us
    await page.waitForFunction(() => location.hash.startsWith('#/play/'), undefined, { timeout: 30_000 });
    await page.waitForSelector('#play-answer', { timeout: 30_000 });
    expect(await page.locator('#play-header').textContent()).toMatch(/you are seat 1 \(solver\)/);
    const matchId = (await page.locator('#play-header .match-id').textContent())!;
    expect(matchId).toMatch(/^play-/);

    // a spectator's lobby lists it live, with the visitor's seat and the chosen bot
    const liveRow = spectator.locator(`#live-matches tr.match-row.live[data-match-id="${matchId}"]`);
    await liveRow.waitFor({ timeout: 30_000 });
    expect(await liveRow.locator('.agents').textContent()).toMatch(/random-valid.*human:lobby-\d+/);

    const text = (await page.locator('#play-text').textContent()) ?? '';
    const numbers = /Numbers: ([\d ]+)\./.exec(text)![1].split(' ').map(Number);
    const expr = `${numbers[0]} + ${numbers[1]}`;
    await page.fill('#play-answer', expr);
    await page.click('#play-submit');
    await page.waitForSelector('#play-result', { timeout: 30_000 });
    const end = rec.events(matchId).find((e): e is MatchEnded => e.type === 'match.ended')!;
    expect(end.code).toBe('ok');
    expect(end.faults).toBe(0);
    expect(await page.locator('#play-result').textContent()).toContain(`Your return: ${end.returns[1]}`);
    await page.screenshot({ path: join(ARTIFACTS, 'lobby-play-over.png'), fullPage: true });
    // and it leaves the spectator's live list for the recent one
    await spectator.locator(`#recent-matches tr.match-row[data-match-id="${matchId}"]`).waitFor({ timeout: 30_000 });
    // back in the lobby the visitor finds the game among the recent ones, and can play again
    await page.click('#play-lobby');
    await page.locator(`#recent-matches tr.match-row[data-match-id="${matchId}"]`).waitFor({ timeout: 30_000 });
    await page.locator('#play-panel tr.play-env[data-env="countdown-v1"] button.play-start').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
    await spectator.close();
  });

  test("bad params are refused in the env's row, in the server's words, and nothing starts", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}#/`);
    const row = page.locator('#play-panel tr.play-env[data-env="deal-or-no-deal-v1"]');
    await row.waitFor({ timeout: 30_000 });
    await row.locator('.play-params').fill('{"nonsense": 1}');
    await row.locator('button.play-start').click();
    await page.waitForFunction(() => !!document.querySelector('#play-panel tr[data-env="deal-or-no-deal-v1"] .play-error')?.textContent, undefined, { timeout: 30_000 });
    expect(await row.locator('.play-error').textContent()).toMatch(/^params\.nonsense: /);
    await row.locator('.play-params').fill('not json');
    await row.locator('button.play-start').click();
    expect(await row.locator('.play-error').textContent()).toMatch(/^params: expected a JSON object/);
    expect(page.url()).not.toMatch(/#\/play\//);
    expect(server.lobbyPlay!.active).toBe(0);
    await page.close();
  });

  test('a server without --allow-play shows no play panel', async () => {
    const plain = await startServer({ bus: new EventBus(), port: 0 });
    const page = await browser.context.newPage();
    try {
      const asked = page.waitForResponse((r) => r.url().endsWith('/api/play'));
      await page.goto(`${plain.url}#/`);
      expect((await asked).status()).toBe(404);
      await page.waitForSelector('#play-panel[data-state="off"]', { state: 'attached' });
      expect(await page.locator('#play-panel').isHidden()).toBe(true);
      expect(await page.locator('#play-panel tr').count()).toBe(0);
    } finally {
      await page.close();
      await plain.close();
    }
  });
});
