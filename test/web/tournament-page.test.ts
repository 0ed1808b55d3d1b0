/**
 * The tournament page in Debian chromium (playwright-core): crosstable, standings, pairs, Swiss
 * rounds and the SPRT state of tournaments run into a temporary store, and a paced tournament
 * whose games are live in the lobby and refresh the page. Screenshots go to test-artifacts/web/.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { parseTournamentConfig } from '../../league/tournament/config';
import { storedTournamentReport } from '../../league/tournament/stored';
import { runTournament } from '../../league/tournament/tournament-run';
import { ARTIFACTS, CHROMIUM, launchBrowser, openPage as openBrowserPage } from './browser';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

const DOND = 'deal-or-no-deal-v1';
const RPS = './examples/rock-paper-scissors.js';

describeBrowser('the tournament page in chromium', () => {
  let dir: string;
  let store: Store;
  let bus: EventBus;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const registry = createRegistry();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-tournament-web-'));
    store = new Store(join(dir, 'arena.db'));
    bus = new EventBus();
    server = await startServer({ bus, store, port: 0 });
    const run = (raw: Record<string, unknown>) => runTournament({ config: parseTournamentConfig(raw), store, registry, bus });
    const four = ['greedy', 'fair-split', 'random'].map((agent) => ({ id: agent, agent }));
    await run({ name: 'dond-rr', format: 'round-robin', env: DOND, players: [...four, { id: 'greedy-t8', agent: 'greedy:{"threshold":8}' }], games: 4 });
    await run({ name: 'dond-sprt', format: 'sprt', env: DOND, players: [{ id: 'A', agent: 'greedy' }, { id: 'B', agent: 'random' }], sprt: { elo0: 0, elo1: 50 } });
    await run({ name: 'rps-swiss', format: 'swiss', env: RPS, players: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, agent: 'random' })), rounds: 2 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const openPage = (hash: string) => openBrowserPage(browser, server.url + hash);

  test('round-robin: standings and crosstable as the report computes them', async () => {
    const report = storedTournamentReport(store, 'dond-rr')!;
    const { page, errors } = await openPage('#/tournament?name=dond-rr');
    await page.waitForFunction(() => document.querySelectorAll('#standings tbody tr').length === 4, undefined, { timeout: 15_000 });
    const players = await page.locator('#standings tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.player));
    expect(players).toEqual(report.standings.map((r) => r.player));
    const wdl = await page.locator('#standings td.wdl').allTextContents();
    expect(wdl).toEqual(report.standings.map((r) => `${r.wins}-${r.draws}-${r.losses}`));
    for (const c of report.crosstable.cells) {
      const text = await page.locator(`#crosstable tr[data-player="${c.player}"] td[data-opponent="${c.opponent}"]`).textContent();
      expect(`${c.player}/${c.opponent}: ${text}`).toBe(`${c.player}/${c.opponent}: ${c.points}/${c.games}`);
    }
    expect(await page.locator('#pairs tbody tr').count()).toBe(6);
    expect(await page.locator('#pairs td.penta').first().textContent()).toMatch(/^\d+ · \d+ · \d+ · \d+ · \d+$/);
    expect(await page.locator('#tournament-progress').textContent()).toMatch(/24\/24 games · finished/);
    expect(await page.locator('#tournament-games tr.match-row').count()).toBe(20);
    await page.screenshot({ path: join(ARTIFACTS, 'tournament-round-robin.png'), fullPage: true });
    // a newest game opens its replay
    await page.locator('#tournament-games a.button').first().click();
    await page.waitForSelector('#timeline li');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('intervals need 10 games: a pair of 4 games says "too few games", a player of 12 games gets its interval', async () => {
    const report = storedTournamentReport(store, 'dond-rr')!;
    const { page, errors } = await openPage('#/tournament?name=dond-rr');
    await page.waitForFunction(() => document.querySelectorAll('#pairs tbody tr').length === 6, undefined, { timeout: 15_000 });
    let checked = 0;
    for (const c of report.crosstable.cells.filter((x) => x.games < 10)) {
      const row = page.locator(`#pairs tr[data-pair="${c.player}-${c.opponent}"]`);
      if (!(await row.count())) continue;
      checked++;
      expect(await row.locator('td.pair-elo').textContent()).toMatch(/^[+−]\d+ \(too few games\)$|^[+−]∞ \(too few games\)$/);
      expect(await row.locator('td').last().textContent()).toBe('too few games');
    }
    expect(checked).toBe(6);
    expect(report.standings.every((r) => r.elo.games >= 10)).toBe(true);
    for (const text of await page.locator('#standings td.interval').allTextContents()) expect(text).toMatch(/^\[([+−]\d+|[+−]∞), ([+−]\d+|[+−]∞)\]$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('SPRT: the decision, LLR between its bounds and the pentanomial counts', async () => {
    const s = storedTournamentReport(store, 'dond-sprt')!.sprt!;
    expect(s.decision).toBe('H1');
    const { page, errors } = await openPage('#/tournament?name=dond-sprt');
    await page.waitForSelector('#sprt-status');
    const text = await page.locator('#sprt-status').textContent();
    expect(text).toContain('H1 accepted');
    const two = (x: number) => String(Number(x.toFixed(2)));
    expect(text).toContain(`LLR ${two(s.llr)} in [${two(s.lower)}, ${two(s.upper)}]`);
    // the players named as the CLI names them (sprt's status line): "A (greedy)"
    expect(await page.locator('#sprt-players').textContent()).toMatch(/^A \(greedy\) vs B \(random\) · /);
    expect(await page.locator('#standings tbody tr[data-player="A"] td').nth(1).textContent()).toBe('Agreedy');
    expect(text).toContain(`pentanomial ${s.counts.join(' · ')}`);
    await page.screenshot({ path: join(ARTIFACTS, 'tournament-sprt.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('Swiss: rounds with byes and Buchholz; switching tournaments with the selector', async () => {
    const report = storedTournamentReport(store, 'rps-swiss')!;
    const { page, errors } = await openPage('#/tournament?name=rps-swiss');
    await page.waitForFunction(() => document.querySelectorAll('#rounds li').length === 2, undefined, { timeout: 15_000 });
    const rounds = await page.locator('#rounds li').allTextContents();
    expect(rounds).toEqual(report.rounds.map((r) => `${r.pairings.map(([a, b]) => `${a} – ${b}`).join(', ')} · bye ${r.bye}`));
    expect(await page.locator('#standings th').allTextContents()).toContain('Buchholz');
    await page.selectOption('#tournament-select', 'dond-rr');
    await page.waitForFunction(() => document.querySelectorAll('#standings tbody tr').length === 4);
    expect(await page.locator('#rounds').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('no tournament yet: one sentence, no empty cards', async () => {
    const empty = new Store(join(dir, 'empty.db'));
    const bare = await startServer({ bus: new EventBus(), store: empty, port: 0 });
    try {
      const { page, errors } = await openBrowserPage(browser, `${bare.url}#/tournament`);
      await page.waitForSelector('#no-tournament');
      expect(await page.locator('#no-tournament').textContent()).toMatch(/^No tournament in this database yet\. Run `arena tournament run --config FILE`/);
      const visible = await page.locator('section.panel').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.id));
      expect(visible).toEqual(['tournament-head']);
      await page.screenshot({ path: join(ARTIFACTS, 'tournament-empty.png'), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await bare.close();
      empty.close();
    }
  });

  test('a running tournament: its games are live in the lobby and the page follows its results', async () => {
    const config = parseTournamentConfig({
      name: 'live-rr',
      format: 'round-robin',
      env: RPS,
      params: { rounds: 5 },
      players: ['x', 'y', 'z'].map((id) => ({ id, agent: 'random' })),
      games: 2,
      paceMs: 120,
    });
    const running = runTournament({ config, store, registry, bus });
    const { page, errors } = await openPage('#/');
    await page.waitForSelector('#live-matches tr.match-row[data-match-id^="live-rr:"]', { timeout: 20_000 });
    await page.goto(`${server.url}#/tournament?name=live-rr`);
    await page.waitForSelector('#tournament-progress');
    await page.waitForFunction(() => /6\/6 games · finished/.test(document.querySelector('#tournament-progress')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await running).toMatchObject({ completed: 6, finished: true });
    expect(await page.locator('#standings tbody tr').count()).toBe(3);
    await page.screenshot({ path: join(ARTIFACTS, 'tournament-live.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
