import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where browser screenshots go (gitignored). */
export const ARTIFACTS = resolve(__dirname, '..', '..', 'test-artifacts', 'web');

/** Debian's chromium, as CI installs it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Debian chromium with a fresh profile; `close()` removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'arena-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 900 },
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens `url` in a new page of `browser`, collecting the page's uncaught errors (a test expects none). */
export async function openPage(browser: { context: BrowserContext }, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

/** Parses a socket.io text frame ("42[...]" event, "43N[...]" ack) into its JSON arguments; null for other frames. */
export function socketIoPayload(frame: string): unknown[] | null {
  const m = /^4[23]\d*(\[.*)$/s.exec(frame);
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as unknown[];
  } catch {
    return null;
  }
}
