/**
 * Issue 16, "the CLI": a closed pipe ends every command quietly; read-only commands on a missing
 * database say so and create nothing; a failed league run leaves no database behind; golden says
 * what it wrote; replay counts the steps it applied.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arena, ROOT } from './helpers';

const RPS = join(ROOT, 'examples', 'rock-paper-scissors.js');
const BIN = resolve(ROOT, 'bin', 'arena.js');
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-newcomer-'));

describe('the CLI as a newcomer meets it', () => {
  test('a closed pipe (| head -1) ends the command quietly: no EPIPE stack trace, exit 0', () => {
    // many lines, so the writer outlives head; bash reports the arena process's own status
    const r = spawnSync('bash', ['-c', `set -o pipefail; node ${JSON.stringify(BIN)} play ${JSON.stringify(RPS)} --agents random --episodes 20000 --json | head -1`], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.status).toBe(0);
  });

  test('read-only commands on a missing database say so and create nothing', () => {
    const dir = tmp();
    const db = join(dir, 'missing.db');
    for (const args of [['league', 'table'], ['league', 'matches'], ['league', 'export'], ['tournament', 'show'], ['tournament', 'list'], ['serve', '--port', '0']]) {
      const r = arena([...args, '--db', db]);
      expect(r.stderr.trim()).toMatch(/^arena: (--db: )?\S+missing\.db does not exist/);
      expect(r.code).toBe(2);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a league run that fails before its first match leaves no database behind; one that ran keeps it', () => {
    const dir = tmp();
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ name: 'bad', env: RPS, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'no-such-agent' }], budget: { matches: 2 } }));
    const r = arena(['league', 'run', '--config', cfg, '--db', join(dir, 'bad.db')]);
    expect(r.stderr).toMatch(/player "b": unknown agent "no-such-agent"/);
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['bad.json']);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ name: 'good', env: RPS, players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'counter-last' }], budget: { matches: 2 } }));
    expect(arena(['league', 'run', '--config', good, '--db', join(dir, 'good.db'), '--quiet']).code).toBe(0);
    expect(existsSync(join(dir, 'good.db'))).toBe(true);
  });

  test('golden says what it wrote, to a file or stdout', () => {
    const out = join(tmp(), 'g.jsonl');
    const r = arena(['golden', RPS, '--seed', '3', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^golden: rock-paper-scissors-v1 seed 3, 3 step\\(s\\), outcome "player[01]|draw[^"]*", returns \\[-?\\d,-?\\d\\] written to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    const toStdout = arena(['golden', RPS, '--seed', '3']);
    expect(toStdout.stdout.trim().split('\n').length).toBeGreaterThan(1);
    expect(toStdout.stderr).toMatch(/written to stdout/);
  });

  test('replay counts only the steps it applied', () => {
    const illegal = arena(['replay', RPS, '--actions', '[{"0":7,"1":1},{"0":1,"1":1}]']);
    expect(illegal.code).toBe(1);
    expect(illegal.stdout).toMatch(/not terminal after 0 of 2 step\(s\)/);
    const partial = arena(['replay', RPS, '--actions', '[{"0":0,"1":1}]']);
    expect(partial.stdout).toMatch(/not terminal after 1 of 1 step\(s\)/);
  });

  test('--watch output comes before the summary when piped (one stream); with --json it stays off stdout', () => {
    const r = spawnSync('bash', ['-c', `node ${JSON.stringify(BIN)} play ${JSON.stringify(RPS)} --agents random --episodes 2 --watch public 2>&1 | cat`], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const lines = r.stdout.trim().split('\n');
    const lastRound = lines.map((l) => /^\s+round /.test(l)).lastIndexOf(true);
    const summary = lines.findIndex((l) => /^rock-paper-scissors-v1: 2 episodes/.test(l));
    expect(lastRound).toBeGreaterThan(0);
    expect(summary).toBeGreaterThan(lastRound);
    const json = arena(['play', RPS, '--agents', 'random', '--watch', 'public', '--json']);
    expect(json.stdout.trim().split('\n').every((l) => l.startsWith('{'))).toBe(true);
    expect(json.stderr).toMatch(/round \{/);
  });
});
