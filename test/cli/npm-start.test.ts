/**
 * `npm start` (the demo) stops cleanly on Ctrl-C sent to npm's own process: the start script
 * `exec`s node, so npm's forwarded SIGINT reaches the demo instead of stopping at `sh -c`.
 * A second `npm start` on the same database says that it resumed each league and from which
 * match (issue 16).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store';
import { ROOT } from './helpers';

/** Runs `npm start -- args` until `ready` shows (and `also()` holds), then SIGINTs npm; resolves with the output and npm's exit code. */
function startAndInterrupt(args: string[], ready: RegExp, also: () => boolean = () => true): Promise<{ out: string; code: number | string }> {
  const npm = spawn('npm', ['start', '--', ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
  let out = '';
  let sent = false;
  return new Promise((resolve, reject) => {
    const ceiling = setTimeout(() => (npm.kill('SIGKILL'), reject(new Error(`npm start did not show ${ready} and stop within 180 s: ${out.slice(-800)}`))), 180_000);
    const check = () => {
      if (!sent && ready.test(out) && also()) {
        sent = true;
        clearInterval(poll);
        npm.kill('SIGINT'); // npm's process only, as a terminal's Ctrl-C reaches npm
      }
    };
    const poll = setInterval(check, 200);
    const onData = (d: Buffer) => {
      out += d.toString();
      check();
    };
    npm.stdout.on('data', onData);
    npm.stderr.on('data', onData);
    npm.on('exit', (code, signal) => (clearTimeout(ceiling), clearInterval(poll), resolve({ out, code: code ?? signal ?? -1 })));
  });
}

describe('npm start', () => {
  test('SIGINT to npm stops the demo cleanly; a rerun says where each league resumed', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-npm-start-')), 'demo.db');
    // stopped once some matches are recorded, so that the rerun has something to resume
    const recorded = () => {
      try {
        const store = new Store(db, { readonly: true });
        try {
          return store.leagues().some((l) => store.matchCount(l.id) > 0);
        } finally {
          store.close();
        }
      } catch {
        return false;
      }
    };
    const first = await startAndInterrupt(['--port', '0', '--db', db, '--no-learners', '--pace', '0'], /demo: watch live at http/, recorded);
    expect(first.out).toMatch(/stopping after the current matches/);
    expect(first.out).not.toMatch(/\n\s+at /);
    expect(first.code).toBe(0);
    const second = await startAndInterrupt(['--port', '0', '--db', db, '--no-learners', '--pace', '0'], /resuming league "demo-\S+" at match \d+/);
    expect(second.out).toMatch(/resuming league "demo-(countdown|deal-or-no-deal|werewolf)" at match [1-9]\d*\//);
    expect(second.code).toBe(0);
  }, 400_000);
});
