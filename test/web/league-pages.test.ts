/**
 * The leaderboard and the league overview in Chromium (issue 16): ranks from the ratings with
 * bootstrap rank ranges (no "=1" for everyone), equal ratings sharing a rank, each rating
 * system saying what it is (OpenSkill with intervals and its scale explained), the chart saying
 * which rating it plots, training charts in words with whole-number iterations and counts apart
 * from rates (a single iteration listed, not an empty grid), and a league's overview. Saves
 * screenshots of both pages to test-artifacts/web/.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry } from '../../app/catalog';
import type { JsonValue } from '../../src/core/json';
import { Rng } from '../../src/core/rng';
import { randomAgent } from '../../agents/random';
import { playRecordedMatch } from '../fixtures/recorded-match';
import { RatingBook } from '../../league/rating-book';
import { leagueLeaderboardProvider } from '../../app/server/league-leaderboard';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store, type PlayerRecord } from '../../src/store/store';
import { ARTIFACTS, CHROMIUM, launchBrowser } from './browser';

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

const player = (id: string, kind: PlayerRecord['kind'], agent: string, parent: string | null = null, version = 0): PlayerRecord => ({ id, kind, agent, version, roles: ['negotiator'], parent, checkpoint: null, createdAt: Date.now() - (20 - version) * 60_000 });

/** One trainer iteration record, as src/train/metrics-log.ts writes it. */
function iteration(it: number): JsonValue {
  const rate = (x: number) => Math.min(1, Math.max(0, x));
  return {
    run: 'L/neural', env: 'deal-or-no-deal-v1', backend: 'cpu', iteration: it, lr: 0.001, episodes: 64, samples: 400, seconds: 1, rolloutSeconds: 0.3, updateSeconds: 0.7,
    episodesPerSec: 64, samplesPerSec: 400, updateSamplesPerSec: 1000,
    outcomes: { agreement: 30 + it, 'no-agreement': 34 - it },
    envStats: { episodes: 64, agreementRate: rate(0.45 + it * 0.02), meanTurns: 5 },
    learners: { negotiator: { training: true, meanReturn: { negotiator: 1.5 + it * 0.2 }, winRate: { random: rate(0.3 + it * 0.05), 'greedy:{"threshold":8}': rate(0.1 + it * 0.03), self: 0.5 }, games: { random: 8, 'greedy:{"threshold":8}': 8, self: 16 }, updates: 8 } },
  };
}

describeBrowser('the leaderboard and the league overview (issue 16)', () => {
  let dir: string;
  let store: Store;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const bus = new EventBus();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-league-pages-'));
    store = new Store(join(dir, 'arena.db'));
    // league L: 48 Deal-or-No-Deal games among three baselines, a learner and its two snapshots
    const env = defaultRegistry.env('deal-or-no-deal-v1');
    const params = env.resolveParams({ protocol: 'openspiel' });
    store.ensureLeague('L', { env: env.meta.id });
    const players = [player('random', 'baseline', 'random'), player('greedy', 'baseline', 'greedy'), player('fair-split', 'baseline', 'fair-split'), player('neural', 'learner', 'learner:neural'), player('neural-v5', 'snapshot', 'random', 'neural', 5), player('neural-v10', 'snapshot', 'random', 'neural-v5', 10)];
    for (const p of players) store.addPlayer('L', p);
    const book = new RatingBook({ eloK: 32, eloInitial: 1500 }, []);
    const rng = Rng.fromSeed(4);
    for (let idx = 0; idx < 48; idx++) {
      const a = idx % 2 === 0 ? 'neural' : players[rng.int(players.length)].id;
      let b = players[rng.int(players.length)].id;
      if (b === a) b = a === 'random' ? 'greedy' : 'random';
      const names = [a, b];
      const agents = [];
      for (const [i, name] of names.entries()) {
        const spec = players.find((p) => p.id === name)!.agent;
        agents.push(spec.includes(':') || spec === 'random' ? randomAgent.create({ env, params, seed: idx * 2 + i }) : (await defaultRegistry.createAgent(spec, { env, params, seed: idx * 2 + i })).agent);
      }
      await playRecordedMatch({ league: 'L', idx, match: { env, params, seed: idx, matchId: `L:${idx}`, bus, agents }, seats: env.seats(env.init(params, idx)), players: names, store, book });
    }
    for (let it = 1; it <= 8; it++) store.recordTraining('L', it, 'neural', iteration(it));
    // league "ties": twins with identical records, and equal online ratings
    store.ensureLeague('ties', { env: env.meta.id });
    const seat = (p: string) => ({ player: p, role: 'negotiator', team: 'negotiator' });
    let k = 0;
    const game = (a: string, b: string, aWins: boolean, ratings: { system: string; player: string; value: number; state: JsonValue }[] = []) =>
      store.recordMatch(
        { league: 'ties', idx: k, id: `ties:${k++}`, env: env.meta.id, params: {}, seed: 0, seats: [seat(a), seat(b)], returns: aWins ? [10, 0] : [0, 10], outcome: 'agreement', code: 'ok', length: 2, faults: [], summary: null, startedAt: k, endedAt: k },
        [],
        ratings.map((r) => ({ ...r, role: 'negotiator' })),
        [],
      );
    for (let r = 0; r < 4; r++) for (const twin of ['twin-a', 'twin-b']) (game(twin, 'low', true), game(twin, 'high', r === 0));
    game('high', 'low', true, [
      { system: 'elo', player: 'twin-a', value: 1512.5, state: { games: 8 } },
      { system: 'elo', player: 'twin-b', value: 1512.5, state: { games: 8 } },
      { system: 'elo', player: 'high', value: 1580, state: { games: 9 } },
      { system: 'elo', player: 'low', value: 1400, state: { games: 9 } },
    ]);
    // league "one-it": a single training iteration so far
    store.ensureLeague('one-it', { env: env.meta.id });
    store.addPlayer('one-it', player('neural', 'learner', 'learner:neural'));
    store.recordTraining('one-it', 1, 'neural', iteration(1));
    // league "round": a learner and its snapshot whose online Elo ends in zeros once rounded (1419.97 -> 1420)
    store.ensureLeague('round', { env: env.meta.id });
    store.addPlayer('round', player('n', 'learner', 'learner:neural'));
    store.addPlayer('round', player('n-v1', 'snapshot', 'random', 'n', 1));
    store.recordMatch(
      { league: 'round', idx: 0, id: 'round:0', env: env.meta.id, params: {}, seed: 0, seats: [seat('n'), seat('n-v1')], returns: [10, 0], outcome: 'agreement', code: 'ok', length: 2, faults: [], summary: null, startedAt: 1, endedAt: 2 },
      [],
      [
        { system: 'elo', player: 'n', role: 'negotiator', value: 1580.04, state: { games: 1 } },
        { system: 'elo', player: 'n-v1', role: 'negotiator', value: 1419.97, state: { games: 1 } },
      ],
      [],
    );
    // league "probed": a learner and its exploit probe's records
    store.ensureLeague('probed', { env: env.meta.id });
    store.addPlayer('probed', player('neural', 'learner', 'learner:neural'));
    for (const [round, mean] of [[2, 0.81], [4, 0.64]]) {
      store.recordTraining('probed', round, 'probe:exploitability', { probe: 'exploitability', kind: 'exploit', round, of: ['neural'], trainingEpisodes: 960, episodes: 200, winRate: { mean, lo: mean - 0.05, hi: mean + 0.05, n: 200 }, margin: { mean: 1.5, lo: 1, hi: 2, n: 200 } });
    }
    server = await startServer({ bus, store, port: 0, leaderboard: leagueLeaderboardProvider(store, { resamples: 200 }) });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(hash: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + hash);
    return { page, errors };
  }
  /** Labels, x ticks and y range of a chart.js chart by canvas id. */
  const chart = (page: Page, id: string) =>
    page.evaluate((cid) => {
      const c = (window as unknown as { Chart: { getChart(id: string): { data: { datasets: { label: string; data: unknown[] }[] }; scales: Record<string, { ticks: { value: number }[]; min: number; max: number; options: { title: { text: string } } }> } | undefined } }).Chart.getChart(cid);
      return c ? { labels: c.data.datasets.map((d) => d.label), points: c.data.datasets.map((d) => d.data.length), xTicks: c.scales.x.ticks.map((t) => t.value), yMin: c.scales.y.min, yMax: c.scales.y.max, yTitle: c.scales.y.options.title.text } : null;
    }, id);

  test('Bradley–Terry: ranks from the ratings with bootstrap rank ranges, said in words; the chart says it plots Elo', async () => {
    const { page, errors } = await open('#/leaderboard?league=L');
    await page.waitForSelector('#leaderboard table.board tbody tr');
    expect(await page.locator('#rating-note').textContent()).toMatch(/^Bradley–Terry: .*95% bootstrap interval.*rank range is where the player ranks in 95% of the bootstrap refits.*Equal ratings share a rank/);
    expect(await page.locator('#leaderboard th').allTextContents()).toEqual(['rank', 'rank range (95%)', 'player', 'rating', '95% interval', '', 'games']);
    const ranks = (await page.locator('#leaderboard td.rank').allTextContents()).map(Number);
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    const ranges = await page.locator('#leaderboard td.rank-range').allTextContents();
    expect(ranges).toHaveLength(6);
    const games = (await page.locator('#leaderboard tbody tr td:last-child').allTextContents()).map(Number);
    // a player with fewer than 10 games has no rank range yet; the league has both kinds
    expect(games.some((g) => g < 10) && games.some((g) => g >= 10)).toBe(true);
    for (const [i, r] of ranges.entries()) {
      if (games[i] < 10) {
        expect(r).toBe('too few games');
        continue;
      }
      const [lo, hi] = r.split('–').map(Number);
      expect(lo).toBeLessThanOrEqual(i + 1);
      expect(hi ?? lo).toBeGreaterThanOrEqual(i + 1);
    }
    await page.waitForFunction(() => (document.querySelector('#rating-chart-title')?.textContent ?? '').length > 0);
    expect(await page.locator('#rating-chart-title').textContent()).toMatch(/online Elo \(the table’s Bradley–Terry is one fit of all results, so it has no history\)/);
    await page.waitForFunction(() => !!(window as unknown as { Chart?: { getChart(id: string): { data: { datasets: unknown[] } } | undefined } }).Chart?.getChart('count-chart')?.data.datasets.length);
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('equal ratings share a rank in every system', async () => {
    const { page, errors } = await open('#/leaderboard?league=ties');
    await page.waitForSelector('#leaderboard td.rank');
    const rows = async () => page.locator('#leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => [(tr as HTMLElement).dataset.player, tr.querySelector('td.rank')?.textContent]));
    expect(await rows()).toEqual([['high', '1'], ['twin-a', '2'], ['twin-b', '2'], ['low', '4']]);
    await page.goto(`${server.url}#/leaderboard?league=ties&system=elo`);
    await page.waitForFunction(() => /^Online Elo/.test(document.querySelector('#rating-note')?.textContent ?? ''));
    await page.waitForSelector('#leaderboard td.rank');
    expect(await rows()).toEqual([['high', '1'], ['twin-a', '2'], ['twin-b', '2'], ['low', '4']]);
    expect(await page.locator('#rating-note').textContent()).toMatch(/no interval/);
    expect(await page.locator('#leaderboard .ci-bar').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('OpenSkill: skill with its 95% interval, the μ − 3σ scale explained, and the chart saying it plots μ − 3σ', async () => {
    const { page, errors } = await open('#/leaderboard?league=L&system=openskill');
    await page.waitForFunction(() => /^OpenSkill/.test(document.querySelector('#rating-note')?.textContent ?? ''));
    await page.waitForSelector('#leaderboard td.ordinal');
    expect(await page.locator('#rating-note').textContent()).toMatch(/μ ± 1\.96σ \(95%\).*μ − 3σ, which starts at 0 \(25 − 3 × 8\.33\) and is negative/);
    expect(await page.locator('#leaderboard th').allTextContents()).toEqual(['rank', 'player', 'skill μ', '95% interval', '', 'μ − 3σ', 'games']);
    const n = await page.locator('#leaderboard tbody tr').count();
    expect(n).toBe(6);
    const games = (await page.locator('#leaderboard tbody tr td:last-child').allTextContents()).map(Number);
    expect(await page.locator('#leaderboard .ci-bar').count()).toBe(games.filter((g) => g >= 10).length);
    expect(await page.locator('#leaderboard td.interval').allTextContents()).toEqual(games.map((g) => (g >= 10 ? expect.stringMatching(/^\[\d+(\.\d)?, \d+(\.\d)?\]$/) : 'too few games')));
    expect(await page.locator('#rating-chart-title').textContent()).toMatch(/OpenSkill μ − 3σ/);
    expect((await chart(page, 'rating-chart'))?.yTitle).toBe('μ − 3σ');
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard-openskill.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('training charts: metrics in words, whole-number iterations, counts apart from rates; one iteration is listed, not an empty grid', async () => {
    const { page, errors } = await open('#/leaderboard?league=L');
    await page.waitForFunction(() => !!(window as unknown as { Chart?: { getChart(id: string): { data: { datasets: unknown[] } } | undefined } }).Chart?.getChart('winrate-chart')?.data.datasets.length);
    const rates = (await chart(page, 'winrate-chart'))!;
    expect(rates.labels).toEqual(['win rate vs random', 'win rate vs greedy (threshold 8)', 'win rate vs itself', 'agreement rate']);
    expect([rates.yMin, rates.yMax]).toEqual([0, 1]);
    const counts = (await chart(page, 'count-chart'))!;
    expect(counts.labels).toEqual(['games vs random', 'games vs greedy (threshold 8)', 'games vs itself', 'episodes played', 'episodes ending “agreement”', 'episodes ending “no-agreement”']);
    const returns = (await chart(page, 'return-chart'))!;
    expect(returns.labels).toEqual(['mean return as negotiator']);
    for (const c of [rates, counts, returns]) {
      expect(c.xTicks.length).toBeGreaterThan(1);
      for (const t of c.xTicks) expect(Number.isInteger(t)).toBe(true);
      for (const l of c.labels) expect(l).not.toMatch(/\.|\{|learners/);
    }
    expect(await page.locator('#training-note').textContent()).toBe('8 training iterations recorded (neural).');

    await page.goto(`${server.url}#/leaderboard?league=one-it`);
    await page.waitForSelector('#winrate-chart-values:not([hidden]) table');
    for (const id of ['return-chart', 'winrate-chart', 'count-chart']) {
      expect(await page.locator(`#${id}`).isVisible()).toBe(false);
      expect(await page.locator(`#${id}-values`).isVisible()).toBe(true);
    }
    expect(await page.locator('#winrate-chart-values').textContent()).toMatch(/After iteration 1 \(a line appears from the second\):.*win rate vs random35%/);
    // no rated match: no empty grid for the ratings either
    await page.waitForSelector('#rating-chart-empty:not([hidden])');
    expect(await page.locator('#rating-chart-empty').textContent()).toBe('No rated match yet.');
    expect(await page.locator('#rating-chart').isVisible()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'training-one-iteration.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a league without learners: its overview shows the standings, no empty training cards', async () => {
    const { page, errors } = await open('#/league?id=ties');
    await page.waitForSelector('#league-standings table.board tbody tr');
    const rows = await page.locator('#league-standings tbody tr').evaluateAll((trs) => trs.map((tr) => [(tr as HTMLElement).dataset.player, tr.querySelector('td.rank')?.textContent]));
    expect(rows).toEqual([['high', '1'], ['twin-a', '2'], ['twin-b', '2'], ['low', '4']]);
    expect(await page.locator('#league-standings').textContent()).toMatch(/This league has no learner/);
    expect(await page.locator('#league-training').isHidden()).toBe(true);
    expect(await page.locator('section.learner').count()).toBe(0);
    // 8 or 9 games each: below the 10 an interval needs
    for (const t of await page.locator('#league-standings td.rank-range').allTextContents()) expect(t).toBe('too few games');
    for (const t of await page.locator('#league-standings td.interval').allTextContents()) expect(t).toBe('too few games');
    expect(await page.locator('#league-standings .ci-bar').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'league-overview-no-learner.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test("the overview's Elo is in whole points: 1419.97 shows as 1420", async () => {
    const { page, errors } = await open('#/league?id=round');
    await page.waitForSelector('section.learner[data-learner="n"] .snapshots tbody tr');
    expect(await page.locator('section.learner[data-learner="n"] .snapshots tbody tr td').allTextContents()).toEqual(['n-v1', '1', expect.any(String), '1420']);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the exploitability card: the newest exploiter win rate with its interval, and the probe rounds', async () => {
    const { page, errors } = await open('#/league?id=probed');
    await page.waitForSelector('#exploitability .exploit-card');
    expect(await page.locator('.exploit-card h2').textContent()).toBe('Exploitabilityexploitability · neural');
    expect(await page.locator('.exploit-now').textContent()).toMatch(/^A fresh exploiter trained 960 episodes against neural wins 64% \[59%, 69%\] of 200 games \(round 4, .* ago\); lower is harder to exploit\.$/);
    expect(await page.locator('.exploit-rounds tbody tr td:first-child').allTextContents()).toEqual(['4', '2']);
    const { page: none } = await open('#/league?id=L');
    await none.waitForSelector('section.learner');
    expect(await none.locator('#exploitability').innerHTML()).toBe('');
    expect(errors).toEqual([]);
    await page.close();
    await none.close();
  });

  test('the league overview: matches, the learner against the baselines, snapshots, training, its best games', async () => {
    const { page, errors } = await open('#/league?id=L');
    await page.waitForSelector('section.learner[data-learner="neural"] .snapshots');
    expect(await page.locator('#league-stats').textContent()).toMatch(/^48 matches played · last .* ago · 1 learner$/);
    const section = page.locator('section.learner[data-learner="neural"]');
    expect(await section.locator('.snapshots tbody tr td:first-child').allTextContents()).toEqual(['neural-v10', 'neural-v5']);
    expect(await section.locator('.last-iteration').textContent()).toMatch(/8 iterations; the newest \(8, .*\):.*mean return as negotiator: 3\.1.*win rate vs random: 70%.*win rate vs greedy \(threshold 8\): 34%/);
    const links = await section.locator('.best-games a.button').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.length).toBe(5);
    const best = store.matches('L').filter((m) => m.seats.some((s) => s.player === 'neural'));
    for (const href of links) expect(best.map((m) => `#/match/${encodeURIComponent(m.id)}`)).toContain(href);
    await page.waitForFunction(() => {
      const canvas = document.querySelector('section.learner canvas.learner-chart');
      const c = (window as unknown as { Chart?: { getChart(el: Element): { data: { datasets: unknown[] } } | undefined } }).Chart;
      return !!canvas && !!c?.getChart(canvas)?.data.datasets.length;
    });
    const labels = await page.evaluate(() => {
      const canvas = document.querySelector('section.learner canvas.learner-chart')!;
      const c = (window as unknown as { Chart: { getChart(el: Element): { data: { datasets: { label: string }[] } } } }).Chart.getChart(canvas);
      return c.data.datasets.map((d) => d.label);
    });
    expect(labels[0]).toBe('neural (learner)');
    expect(labels.slice(1).sort()).toEqual(['fair-split', 'greedy', 'random']);
    // a best game opens its replay
    await section.locator('.best-games a.button').first().click();
    await page.waitForSelector('#dond-pool');
    await page.goto(`${server.url}#/league?id=L`);
    await page.waitForSelector('section.learner .snapshots');
    await page.waitForFunction(() => !!(window as unknown as { Chart?: { getChart(id: string): { data: { datasets: unknown[] } } | undefined } }).Chart?.getChart('winrate-chart')?.data.datasets.length);
    await page.screenshot({ path: join(ARTIFACTS, 'league-overview.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
