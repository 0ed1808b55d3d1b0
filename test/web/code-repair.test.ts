/**
 * The code-repair renderer in Chromium: a finished FixAudit match replayed in the omniscient
 * view shows the highlighted program, the diff between revisions, every public test with its
 * mark, the hidden-test count and the auditor's tests with verdicts; the public view of the
 * same match holds no hidden test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry, closeSharedSandbox } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { scriptedAgent } from '../../agents/scripted';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import type { CodeRepairObservation } from '../../envs/code-repair';
import { ARTIFACTS, CHROMIUM, launchBrowser } from './browser';

const describeBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

describeBrowser('code-repair in the page', () => {
  let server: ArenaServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    const bus = new EventBus();
    server = await startServer({ bus, port: 0, allowOmniscient: true });
    const env = defaultRegistry.env('code-repair-v1');
    const params = env.resolveParams({ task: 'js/collatz-steps', variant: 0, rounds: 1 });
    const fixed = 'function collatzSteps(n) {\n  let steps = 0;\n  while (n !== 1) {\n    n = n % 2 === 0 ? n / 2 : 3 * n + 1;\n    steps++;\n  }\n  return steps;\n}';
    await runMatch({
      env,
      params,
      seed: 1,
      matchId: 'cr-1',
      bus,
      effects: defaultRegistry.effects(),
      agents: [scriptedAgent('fixer', (o: CodeRepairObservation) => (o.revisions.length > 1 ? o.candidate! : fixed)), scriptedAgent('auditor', () => JSON.stringify([{ input: [1] }, { input: [6], expected: 1 }]))],
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await closeSharedSandbox();
  });

  test('program, diff, tests with marks, hidden count, auditor verdicts; nothing hidden in the public view', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}#/match/cr-1?view=omniscient`);
    await page.waitForSelector('#cr-program code .hljs-keyword', { timeout: 20_000 });
    expect(await page.locator('#cr-program').textContent()).toContain('while (n !== 1)');
    const diff = await page.locator('#cr-diff').textContent();
    expect(diff).toMatch(/- {3}let steps = 1;/);
    expect(diff).toMatch(/\+ {3}let steps = 0;/);
    expect(await page.locator('#cr-public tbody tr').count()).toBe(5);
    expect(await page.locator('#cr-public tbody td:first-child .pass').count()).toBe(5);
    expect(await page.locator('#cr-hidden').textContent()).toMatch(/hidden tests: 11 of 11 pass/);
    const cells = async (row: number) => page.locator(`#cr-audit tbody tr:nth-child(${row}) td`).allTextContents();
    // round, input, expected in force, verdict, score: the buggy revision returned 1 for n = 1
    expect(await cells(1)).toEqual(['1', '[1]', '0', '✗ wrong-answer got 1', '1']);
    expect(await cells(2)).toEqual(['1', '[6]', '1', '✗ invalid: the reference returns 8, not the expected value', '-1']);
    expect(await page.locator('#cr-returns').textContent()).toBe('solved: returns 1 / 0'); // fixed: no valid auditor test fails; auditor (1 - 1) / 2
    await page.screenshot({ path: join(ARTIFACTS, 'code-repair.png'), fullPage: true });

    await page.goto(`${server.url}#/match/cr-1?view=public`);
    await page.waitForSelector('#cr-hidden');
    const html = await page.content();
    // hidden inputs 871 and 97, hidden expected 152: as whole numbers only (a millisecond timestamp or a port can hold the digits 871)
    expect(html).not.toMatch(/(?<![\d.])871(?![\d.])/);
    for (const secret of ['"expected":152', '[97]']) expect(html).not.toContain(secret);
    expect(errors).toEqual([]);
    await page.close();
  });
});
