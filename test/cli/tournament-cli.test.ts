import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from './helpers';

const tmp = () => mkdtempSync(join(tmpdir(), 'arena-tournament-cli-'));

describe('arena tournament / arena sprt', () => {
  test('sprt: greedy vs random in Deal-or-No-Deal accepts H1 (exit 0), printing the LLR with its bounds', () => {
    const r = arena(['sprt', '--a', 'greedy', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '0', '--elo1', '5', '--every', '100']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^sprt A \(greedy\) vs B \(random\) \[0, 5\] \(logistic, α 0.05, β 0.05\): 100 games, .*LLR [\d.-]+ \[-2\.94, 2\.94\].*: running$/m);
    expect(r.stdout).toMatch(/: \d+ games, W-D-L \d+-\d+-\d+, penta \[\d+,\d+,\d+,\d+,\d+\], LLR (2\.9[4-9]|3\.\d\d) \[-2\.94, 2\.94\].*: H1 accepted\n$/);
    const json = arena(['sprt', '--a', 'greedy', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '0', '--elo1', '5', '--json']);
    const out = JSON.parse(json.stdout) as { decision: string; games: number; llr: number; upper: number; counts: number[] };
    expect(out.decision).toBe('H1');
    expect(out.llr).toBeGreaterThanOrEqual(out.upper);
    expect(out.counts).toHaveLength(5);
    expect(out.games).toBe(2 * out.counts.reduce((a, b) => a + b, 0));
  });

  test('sprt: undecided at the game limit (exit 3), trinomial when unpaired, negative Elo bounds parse', () => {
    const r = arena(['sprt', '--a', 'random', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '-5', '--elo1', '5', '--max-games', '10', '--unpaired', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { decision: null; games: number; counts: number[]; elo0: number };
    expect(out).toMatchObject({ decision: null, games: 10, elo0: -5 });
    expect(out.counts).toHaveLength(3);
  });

  test.each([
    [['--model', 'bayes'], /^arena: --model: expected logistic or normalized, got "bayes"\n$/],
    [['--alpha', 'x'], /^arena: --alpha: expected a number, got "x"\n$/],
    [['--alpha', '0.7'], /^arena: tournament config: sprt\.alpha: /],
    [['--env', 'countdown-v1'], /^arena: tournament config: env: countdown-v1: tournaments pair two players, one per side; this env has 1 seat on one team\n$/],
    [['--a', 'nobody'], /^arena: tournament config: player "A": unknown agent "nobody"/],
  ])('sprt usage errors are one line naming the option (exit 2): %j', (extra, message) => {
    const base = ['sprt', '--a', 'greedy', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '0', '--elo1', '5'];
    const args = [...base];
    for (let i = 0; i < extra.length; i += 2) {
      const at = args.indexOf(extra[i]);
      if (at >= 0) args[at + 1] = extra[i + 1];
      else args.push(extra[i], extra[i + 1]);
    }
    const r = arena(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  test('tournament run prints standings and crosstable; show/list read it back; --json', () => {
    const dir = tmp();
    const db = join(dir, 't.db');
    const cfg = join(dir, 'rr.json');
    writeFileSync(cfg, JSON.stringify({ name: 'rr', format: 'round-robin', env: 'deal-or-no-deal-v1', players: [{ id: 'greedy', agent: 'greedy' }, { id: 'random', agent: 'random' }, { id: 'fair', agent: 'fair-split' }], games: 4 }));
    const r = arena(['tournament', 'run', '--config', cfg, '--db', db, '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tournament rr \(round-robin, deal-or-no-deal-v1\): 12\/12 games, finished\n/);
    expect(r.stdout).toMatch(/\nstandings\n {2}rank {2}player/);
    expect(r.stdout).toMatch(/\n {2}greedy vs random: 4 games, \d+-\d+-\d+, score [\d.]+%; seat 0 \d+-\d+-\d+, seat 1 \d+-\d+-\d+; penta \[\d+,\d+,\d+,\d+,\d+\]; Elo /);
    const again = arena(['tournament', 'run', '--config', cfg, '--db', db, '--quiet']);
    expect(again.stderr).toMatch(/resuming tournament "rr" at game 12/);
    expect(again.stdout).toBe(r.stdout);
    const shown = arena(['tournament', 'show', '--db', db]);
    expect(shown.stdout).toBe(r.stdout);
    const json = JSON.parse(arena(['tournament', 'show', '--db', db, '--json']).stdout) as { standings: { player: string; games: number }[]; crosstable: { cells: unknown[] } };
    expect(json.standings.map((s) => s.games)).toEqual([8, 8, 8]);
    expect(json.crosstable.cells).toHaveLength(6);
    expect(arena(['tournament', 'list', '--db', db]).stdout).toBe('rr  round-robin  deal-or-no-deal-v1  12 games\n');
    expect(arena(['tournament', 'show', '--db', db, '--tournament', 'nope']).stderr).toMatch(/^arena: --tournament: no tournament "nope" in this database \(have: rr\)\n$/);
  });

  test('tournament config errors: one line, the field named (exit 2)', () => {
    const dir = tmp();
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ name: 'b', format: 'gauntlet', env: 'deal-or-no-deal-v1', players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'random' }], games: 3 }));
    const r = arena(['tournament', 'run', '--config', cfg, '--db', join(dir, 'x.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('arena: tournament config: games: must be even when paired (each pair swaps the seats), got 3; challengers: a gauntlet needs at least one challenger (a player id)\n');
    const missing = arena(['tournament', 'run', '--config', join(dir, 'none.json'), '--db', join(dir, 'x.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^arena: --config: cannot read .*none\.json \(ENOENT\)\n$/);
  });

  test('tournament configs read module paths from their own folder; a module that does not load is one line (exit 2) before any "watch live at" line', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'bots.js'), "module.exports = { agents: [{ name: 'first', create: () => ({ name: 'first', act: (obs, legal) => legal[0] }) }] };\n");
    writeFileSync(join(dir, 'broken.js'), "require('./not-there');\n");
    const config = (name: string, agent: string) => JSON.stringify({ name, format: 'round-robin', env: 'deal-or-no-deal-v1', players: [{ id: 'a', agent }, { id: 'b', agent: 'random' }], games: 2 });
    writeFileSync(join(dir, 'ok.json'), config('ok', './bots.js#first'));
    writeFileSync(join(dir, 'bad.json'), config('bad', './broken.js'));
    // the CLI runs from the repo root: ./bots.js exists only beside the config
    const ok = arena(['tournament', 'run', '--config', join(dir, 'ok.json'), '--db', join(dir, 't.db'), '--quiet']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^tournament ok \(round-robin, deal-or-no-deal-v1\): 2\/2 games, finished\n/);
    const bad = arena(['tournament', 'run', '--config', join(dir, 'bad.json'), '--db', join(dir, 't.db'), '--quiet', '--port', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^arena: tournament config: player "a": cannot load module \S*broken\.js: Cannot find module '\.\/not-there'\n$/);
  });

  test('sprt --db records the test (shown by tournament show); --port serves the page while it runs, a taken port is one line', async () => {
    const dir = tmp();
    const db = join(dir, 's.db');
    const base = ['sprt', '--a', 'greedy', '--b', 'random', '--env', 'deal-or-no-deal-v1', '--elo0', '0', '--elo1', '5', '--db', db, '--name', 'g-vs-r'];
    const r = arena([...base, '--port', '0']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^watch live at http:\/\/127\.0\.0\.1:\d+\/#\/tournament\?name=g-vs-r$/m);
    const shown = arena(['tournament', 'show', '--db', db, '--tournament', 'g-vs-r']);
    expect(shown.stdout).toContain(r.stdout.trim());
    const again = arena(base); // a rerun finds the test decided and plays nothing more
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(r.stdout);
    expect(arena(['tournament', 'list', '--db', db]).stdout).toMatch(/^g-vs-r {2}sprt {2}deal-or-no-deal-v1 {2}\d+ games\n$/);
    const taken = createServer();
    await new Promise<void>((res) => taken.listen(0, '127.0.0.1', () => res()));
    const port = (taken.address() as { port: number }).port;
    const busy = arena([...base, '--name', 'other', '--port', String(port)]);
    taken.close();
    expect(busy.code).toBe(2);
    expect(busy.stderr).toBe(`arena: --port: ${port} is already in use; pick another with --port\n`);
  });
});
