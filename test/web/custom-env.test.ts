/**
 * A custom env on the page (issue 16), in Chromium: Kuhn poker from a loose module
 * (test/fixtures/outside/kuhn-poker.js, which no page renderer knows) played as a league would
 * play it. The generic renderer shows the env's own words for the chosen view (`render(obs)`:
 * both hole cards in the omniscient view, only one's own in a seat's view), nobody "to act"
 * once the game is over, one name per player (the league's player ids, in the header and the
 * players table alike), and the env id — not the module path of the league's config — in the
 * league menus. Saves a screenshot to test-artifacts/web/.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import { playRecordedMatch } from '../fixtures/recorded-match';
import { RatingBook } from '../../league/rating-book';
import { leagueLeaderboardProvider } from '../../app/server/league-leaderboard';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { ARTIFACTS, CHROMIUM, launchBrowser, openPage as openBrowserPage } from './browser';

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
const KUHN = resolve(__dirname, '..', 'fixtures', 'outside', 'kuhn-poker.js');

describeBrowser('a custom env on the page (issue 16)', () => {
  let dir: string;
  let store: Store;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let cards: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-custom-page-'));
    store = new Store(join(dir, 'arena.db'));
    const registry = createRegistry();
    const [id] = (await registry.loadModule(KUHN)).envs;
    const env = registry.env(id);
    const params = env.resolveParams({});
    store.ensureLeague('kuhn', { env: './kuhn-poker.js' });
    for (const p of ['bettor', 'caller']) store.addPlayer('kuhn', { id: p, kind: 'baseline', agent: 'random', version: 0, roles: ['player'], parent: null, checkpoint: null, createdAt: 0 });
    const book = new RatingBook({ eloK: 32, eloInitial: 1500 }, []);
    const bus = new EventBus();
    // seat 0 bets, seat 1 calls: a showdown after two steps
    const agent = (name: string) => ({ name, act: () => 1 });
    const seed = 5;
    const state = env.init(params, seed) as { cards: number[] };
    cards = state.cards.map((c) => 'JQK'[c]);
    await playRecordedMatch({
      league: 'kuhn',
      idx: 0,
      match: { env, params, seed, matchId: 'kuhn:0', bus, agents: [agent('always-bet'), agent('always-bet')], names: ['bettor', 'caller'] },
      seats: env.seats(env.init(params, seed)),
      players: ['bettor', 'caller'],
      store,
      book,
    });
    server = await startServer({
      bus,
      store,
      port: 0,
      allowOmniscient: true,
      leaderboard: leagueLeaderboardProvider(store, { resamples: 20 }),
      resolveEnv: (envId) => (envId === id ? env : undefined),
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (hash: string) => openBrowserPage(browser, server.url + hash);

  test('the omniscient view shows the env\'s words with both hole cards; nobody to act at the end; one name per player', async () => {
    const { page, errors } = await open('#/match/kuhn%3A0?view=omniscient');
    const text = page.locator('#obs-text');
    await text.waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelector('#ctl-label')?.textContent?.match(/^event (\d+) \/ \1$/));
    expect(await text.textContent()).toBe(`player 0 holds ${cards[0]}, player 1 holds ${cards[1]}; moves: bet bet`);
    // the JSON is one click away, not the main view
    expect(await page.locator('details.obs-json').getAttribute('open')).toBeNull();
    // over: no seat marked to act
    await page.waitForSelector('.generic .outcome');
    expect(await page.locator('table.players tbody td:nth-child(4)').allTextContents()).toEqual(['', '']);
    // the league's player ids everywhere: the players table, the header
    expect(await page.locator('table.players tbody td:nth-child(2)').allTextContents()).toEqual(['bettor', 'caller']);
    expect(await page.locator('.match-meta .agents').textContent()).toMatch(/bettor.*caller/);
    await page.screenshot({ path: join(ARTIFACTS, 'custom-env-kuhn-omniscient.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  test("a seat's view shows only its own card in the env's words (before the showdown)", async () => {
    const { page, errors } = await open('#/match/kuhn%3A0?view=seat%3A1');
    const text = page.locator('#obs-text');
    await text.waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelector('#ctl-label')?.textContent?.match(/^event (\d+) \/ \1$/));
    // step back to the first observation: seat 1 knows its own card only
    await page.locator('#ctl-start').click();
    await page.waitForFunction(() => document.querySelector('#obs-text')?.textContent?.includes('moves: none yet'));
    expect(await text.textContent()).toBe(`player 0 holds ?, player 1 holds ${cards[1]}; moves: none yet`);
    expect(errors).toEqual([]);
  });

  test('the league menus name the env by its id, not the module path of the config', async () => {
    const { page, errors } = await open('#/leaderboard');
    await page.waitForFunction(() => [...document.querySelectorAll('select option')].some((o) => o.textContent?.startsWith('kuhn')));
    const options = await page.locator('select option').allTextContents();
    expect(options).toContain('kuhn (kuhn-poker-v1)');
    expect(options.join(' ')).not.toMatch(/\.js/);
    expect(errors).toEqual([]);
  });
});
