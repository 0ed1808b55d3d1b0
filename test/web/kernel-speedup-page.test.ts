/**
 * The kernel-speedup renderer in Debian chromium (playwright-core): a match played with the real
 * sandbox (a wrong JavaScript revision, then a schedule; the boundary attacker; the evaluator)
 * shows the highlighted kernel sources, correctness per trial, the speedup with its interval and
 * the attacker's input. Screenshots go to test-artifacts/web/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { closeSharedSandbox, defaultRegistry, make } from '../../app/catalog';
import { runMatch, type MatchResult } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { scriptedAgent } from '../../agents/scripted';
import { legalScheduleIndices, kernelTask, type KernelState } from '../../envs/kernel-speedup';
import { ARTIFACTS, CHROMIUM, launchBrowser } from './browser';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

jest.setTimeout(180_000);

describeBrowser('the kernel-speedup match page in chromium', () => {
  let bus: EventBus;
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let result: MatchResult;

  beforeAll(async () => {
    bus = new EventBus();
    const recorder = new MemoryRecorder(bus);
    server = await startServer({ bus, port: 0, keepEnded: 10 });
    const { env, params } = make('kernel-speedup-v1', { task: 'sort', shape: 1, revisions: 2 });
    const wrong = 'function kernel(inputs, dims) { const y = inputs.x.slice(); return { y }; }';
    let k = 0;
    const defender = scriptedAgent('defender', () => (k++ === 0 ? wrong : legalScheduleIndices(kernelTask('sort'))[1]));
    const mk = async (spec: string) => (await defaultRegistry.createAgent(spec, { env, params, seed: 1 })).agent;
    result = await runMatch({ env, params, seed: 2, matchId: 'ks-1', bus, agents: [defender, await mk('boundary-attacker'), await mk('feature-evaluator')], effects: defaultRegistry.effects() });
    expect(result.code).toBe('ok');
    expect(recorder.events('ks-1').length).toBeGreaterThan(10);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await closeSharedSandbox();
  });

  test('sources highlighted, correctness per trial, the speedup and its interval, the attack', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}#/match/ks-1`);
    await page.waitForSelector('#ks-revisions .ks-revision');
    const s = result.finalState as KernelState;
    // both revisions, each source highlighted by highlight.js (keywords become spans)
    await page.waitForFunction(() => document.querySelectorAll('.ks-source code.hljs').length === 2, undefined, { timeout: 20_000 });
    expect(await page.locator('.ks-source code.hljs .hljs-keyword').first().textContent()).toBe('function');
    expect(await page.locator('.ks-source code').first().textContent()).toContain('inputs.x.slice()');
    // the wrong revision: every correctness trial listed, the failing ones marked
    const first = s.revisions[0].measurement!;
    expect(first.code).toBe('wrong-answer');
    await page.locator('.ks-revision').first().locator('details').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    expect(await page.locator('.ks-revision').first().locator('.ks-trials tbody tr').count()).toBe(first.trials.length);
    expect(await page.locator('.ks-revision').first().locator('.ks-trials tr.bad').count()).toBe(first.trials.filter((t) => t.code !== 'ok').length);
    // the schedule: the speedup with its interval and the interval bar
    const t = s.revisions[1].measurement!.timing!;
    const speedText = await page.locator('.ks-revision').nth(1).locator('.ks-speedup').textContent();
    expect(speedText).toContain(`${Number(t.speedup.toFixed(2))}×`);
    expect(speedText).toContain(`[${Number(t.lo.toFixed(2))}, ${Number(t.hi.toFixed(2))}] 95%`);
    expect(await page.locator('.ks-revision').nth(1).locator('.ks-axis .ks-ci').count()).toBe(1);
    // the evaluator's forecast and the attack
    expect(await page.locator('.ks-prediction').count()).toBe(2);
    const attackText = await page.locator('#ks-attack').textContent();
    expect(attackText).toContain('"cycle"');
    expect(attackText).toContain(`score ${s.attack!.score}`);
    await page.screenshot({ path: join(ARTIFACTS, 'kernel-speedup.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the highlight.js bundle registers the TypeScript grammar (AssemblyScript sources) and its theme is served', async () => {
    const bundle = await fetch(new URL('/vendor/highlight.js', server.url));
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain("hljs.registerLanguage('typescript'");
    expect((await fetch(new URL('/vendor/highlight.css', server.url))).status).toBe(200);
  });
});
