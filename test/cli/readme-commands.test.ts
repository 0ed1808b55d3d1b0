/**
 * Issue 16: every `npx arena ...` command shown in the README's command block runs as shown,
 * in order, from a scratch folder holding the repo's `examples/` (so files it writes stay there).
 * Commands that run until stopped (servers, seats waiting for a person or a bot, an SPRT of
 * hundreds of games, a league of 300 matches) are listed in LONG with the reason: each is started,
 * must print what shows it works, and must stop on Ctrl-C (SIGINT) without a stack trace. Their `--port` is
 * replaced by 0 (any free port) so the test never collides with a running server.
 */
import { readFileSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { ROOT } from './helpers';

const BIN = resolve(ROOT, 'bin', 'arena.js');

/** The README's `npx arena` lines (comments cut), in order. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The `arena` command'));
  const block = section.slice(section.indexOf('```sh\n') + 6, section.indexOf('```', section.indexOf('```sh\n') + 6));
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('npx arena '));
}

/** Shell-like split: single quotes keep their content. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

/** Commands that do not end by themselves: why, and the output that shows they work. */
const LONG: { match: RegExp; reason: string; ready: RegExp }[] = [
  { match: /--agents human,/, reason: 'waits for a person at the page', ready: /#\/play\// },
  { match: /--agents remote,/, reason: 'waits for a bot to connect', ready: /tokens|seats\.json/ },
  { match: /^league run /, reason: '300 matches and a learner: minutes', ready: /training backend|league deal-or-no-deal/ },
  { match: /^sprt /, reason: 'hundreds of games to a decision', ready: /LLR/ },
  { match: /^env-serve /, reason: 'a server', ready: /http:\/\/127\.0\.0\.1:\d+/ },
  { match: /^serve /, reason: 'a server', ready: /serving arena\.db at http/ },
  { match: /^demo /, reason: 'a server with endless leagues', ready: /watch live at http/ },
];

describe('the README commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'), 'dir');
  const commands = readmeCommands();

  test('the README shows the commands', () => {
    expect(commands.length).toBeGreaterThanOrEqual(20);
    for (const cmd of ['envs', 'check', 'play', 'rollouts', 'golden', 'replay', 'tasks', 'league', 'tournament', 'sprt', 'env-serve', 'serve', 'train', 'demo']) {
      expect(commands.some((c) => c.startsWith(`npx arena ${cmd} `))).toBe(true);
    }
  });

  for (const [i, line] of readmeCommands().entries()) {
    const args = words(line).slice(2);
    const text = args.join(' ');
    const long = LONG.find((l) => l.match.test(text));
    test(`${i + 1}: ${line}${long ? ` (runs until stopped: ${long.reason})` : ''}`, async () => {
      if (!long) {
        const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 240_000, env: { ...process.env, FORCE_COLOR: '0' } });
        if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.slice(-800)}`);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        return;
      }
      const portless = args.map((a, k) => (args[k - 1] === '--port' ? '0' : a));
      const child = spawn(process.execPath, [BIN, ...portless], { cwd: dir, env: { ...process.env, FORCE_COLOR: '0' } });
      let out = '';
      const exited = new Promise<number | string>((ok) => child.on('exit', (code, signal) => ok(code ?? signal ?? -1)));
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no output matching ${long.ready} within 120 s: ${out.slice(-800)}`)), 120_000);
        const check = () => long.ready.test(out) && (clearTimeout(timer), ok());
        child.stdout.on('data', (d: Buffer) => ((out += d.toString()), check()));
        child.stderr.on('data', (d: Buffer) => ((out += d.toString()), check()));
        void exited.then(() => (clearTimeout(timer), long.ready.test(out) ? ok() : fail(new Error(`exited before ${long.ready}: ${out.slice(-800)}`))));
      });
      child.kill('SIGINT');
      const code = await exited;
      expect(out).not.toMatch(/\n\s+at /);
      // 0: stopped cleanly; 130: interrupted where there was nothing to finish (a seat waiting, env-serve)
      expect([0, 130]).toContain(code);
    }, 300_000);
  }
});
