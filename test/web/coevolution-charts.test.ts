/**
 * Issue 17 in Chromium: a co-evolution league's training charts show, in words, the solver's
 * success on each episode source (the current challenger, the generator) and the difficulty
 * probes (league/probes.ts: judges that do not learn, on the challenger's fresh puzzles), and
 * a probe recorded while the page is open appears without a reload.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import type { JsonValue } from '../../src/core/json';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { CHROMIUM, launchBrowser } from './browser';

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

/** A solver iteration record with episode sources, as src/train/trainer.ts writes it. */
function solverRow(it: number): JsonValue {
  const stats = (solveRate: number) => ({ puzzles: 8, reachableRate: 1, solveRate, meanSolverNodes: 40 + it });
  return {
    run: 'coevo/solver', env: 'countdown-v1', backend: 'cpu', iteration: it, lr: 0.001, episodes: 16, samples: 300, seconds: 1, rolloutSeconds: 0.5, updateSeconds: 0.5,
    episodesPerSec: 16, samplesPerSec: 300, updateSamplesPerSec: 600,
    outcomes: { 'partly-solved': 16 },
    sources: { challenger: { episodes: 8, envStats: stats(0.4 + it * 0.01) }, generator: { episodes: 8, envStats: stats(0.6) } },
    learners: { solver: { training: true, meanReturn: { solver: 0.5 }, winRate: { challenger: 0.5 }, games: { challenger: 8 }, updates: it } },
  };
}

/** A difficulty probe's record, as league/probes.ts writes it. */
const probeRow = (round: number): JsonValue => ({ probe: 'frozen', round, episodes: 20, kept: 18, outcomes: { unsolvable: 2, 'partly-solved': 18 }, envStats: { puzzles: 18, solveRate: 0.7 - round * 0.05, meanSolverNodes: 50 } });

describeBrowser('co-evolution in the league view (issue 17)', () => {
  let dir: string;
  let store: Store;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const bus = new EventBus();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-coevo-page-'));
    store = new Store(join(dir, 'arena.db'));
    store.ensureLeague('coevo', { env: 'countdown-v1' });
    // Werewolf's probes: the env's win rate per team (an object of rates)
    const teams = (it: number): JsonValue => ({ probe: 'villagers', round: it, episodes: 50, kept: 50, outcomes: {}, envStats: { games: 50, winRate: { villagers: 0.3 + it * 0.02, werewolves: 0.7 - it * 0.02 } } });
    for (let it = 1; it <= 3; it++) {
      store.recordTrainingRound('coevo', [{ iteration: it, role: 'solver', metrics: solverRow(it) }, { iteration: it, role: 'probe:frozen', metrics: probeRow(it) }, { iteration: it, role: 'probe:villagers', metrics: teams(it) }], []);
    }
    server = await startServer({ bus, store, port: 0 });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('per-source success and the probes are plotted in words, and a new probe shows up live', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}#/league?id=coevo`);
    const labels = () =>
      page.evaluate(() => {
        const c = (window as unknown as { Chart?: { getChart(id: string): { data: { datasets: { label: string; data: unknown[] }[] } } | undefined } }).Chart?.getChart('winrate-chart');
        return c ? c.data.datasets.map((d) => `${d.label} (${d.data.length})`) : [];
      });
    await page.waitForFunction(() => !!(window as unknown as { Chart?: { getChart(id: string): { data: { datasets: unknown[] } } | undefined } }).Chart?.getChart('winrate-chart')?.data.datasets.length);
    const rates = await labels();
    expect(rates).toEqual(
      expect.arrayContaining([
        'difficulty probe frozen: solve rate (3)',
        'solver: solve rate on episodes from challenger (3)',
        'solver: solve rate on episodes from generator (3)',
        'solver: win rate vs challenger (3)',
        'difficulty probe villagers: win rate: villagers (3)',
        'difficulty probe villagers: win rate: werewolves (3)',
      ]),
    );
    for (const l of rates) expect(l).not.toMatch(/\.|\{|sources|envStats|probe:/);
    expect(await page.locator('#training-note').textContent()).toMatch(/\(solver, difficulty probe frozen, difficulty probe villagers\)|\(difficulty probe frozen, difficulty probe villagers, solver\)/);
    // a probe recorded now (with its bus event, as the league sends it) appears without a reload
    store.recordTrainingRound('coevo', [{ iteration: 4, role: 'probe:frozen', metrics: probeRow(4) }], []);
    bus.publish({ type: 'training.iteration', run: 'coevo/probe:frozen', league: 'coevo', seq: 4, time: Date.now(), visibility: 'public', data: probeRow(4) as { [key: string]: JsonValue } });
    await page.waitForFunction(() => {
      const c = (window as unknown as { Chart: { getChart(id: string): { data: { datasets: { label: string; data: unknown[] }[] } } | undefined } }).Chart.getChart('winrate-chart');
      return c?.data.datasets.some((d) => d.label === 'difficulty probe frozen: solve rate' && d.data.length === 4);
    }, undefined, { timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
  });
});
