/**
 * Issue 15 item 8: user mistakes and bad files are answered with one line that names the
 * option or file and what to do — no stack traces, no megabytes of echoed input, no repeated
 * "(got …)" — and bad input that used to be accepted is refused.
 */
import { createServer, type Server } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Store } from '../../src/store/store';
import { arena, ROOT, startArena } from './helpers';

const RPS = './examples/rock-paper-scissors.js';
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-errors-'));

/** The run failed with exactly one `arena: ...` line matching `re`, and the given exit code. */
function oneLineError(r: { code: number; stderr: string }, code: number, re: RegExp): void {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  const lines = r.stderr.trim().split('\n').filter((l) => !/^(backend|league \S+: training backend): /.test(l)); // progress lines
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^arena: /);
  expect(lines[0]).toMatch(re);
  expect(r.code).toBe(code);
}

function leagueConfig(dir: string, name: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, env: join(ROOT, RPS), players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'counter-last' }], budget: { matches: 20 }, ...extra }));
  return file;
}

describe('one-line errors', () => {
  test('--params naming a folder, a missing params or actions file (not "bad JSON")', () => {
    oneLineError(arena(['play', RPS, '--agents', 'random', '--params', tmpdir()]), 2, /--params: \S+ is a folder; give JSON or a JSON file/);
    oneLineError(arena(['play', RPS, '--agents', 'random', '--params', 'no-such-params.json']), 2, /--params: "no-such-params\.json" is neither JSON nor an existing file/);
    oneLineError(arena(['replay', RPS, '--actions', 'no-such-actions.json']), 2, /--actions: "no-such-actions\.json" is neither JSON nor an existing file/);
    const dir = tmp();
    writeFileSync(join(dir, 'p.json'), '{"rounds": ');
    oneLineError(arena(['play', RPS, '--agents', 'random', '--params', join(dir, 'p.json')]), 2, /--params: \S+p\.json is not valid JSON \(/);
  });

  test('--faults garbage, in play and in a league config', () => {
    oneLineError(arena(['play', RPS, '--agents', 'random', '--faults', 'retry:x,sometimes']), 2, /^arena: --faults: "retry:x" is not one of retry:N, forfeit, default$/);
    const dir = tmp();
    oneLineError(arena(['league', 'run', '--config', leagueConfig(dir, 'f', { faults: 'never' }), '--db', join(dir, 'f.db')]), 2, /league config: faults: "never" is not one of retry:N, forfeit, default/);
  });

  test('golden --out into a missing folder; check --golden with a missing or garbage file', () => {
    oneLineError(arena(['golden', RPS, '--out', join(tmp(), 'no', 'such', 'g.jsonl')]), 2, /--out: cannot write \S+g\.jsonl \(the folder \S+such does not exist\)/);
    oneLineError(arena(['check', RPS, '--golden', 'no-such-golden.jsonl']), 2, /--golden: cannot read no-such-golden\.jsonl \(no such file\)/);
    const bad = join(tmp(), 'bad.jsonl');
    writeFileSync(bad, 'garbage\n');
    oneLineError(arena(['check', RPS, '--golden', bad]), 2, /--golden: \S+bad\.jsonl: golden line 1: /);
  });

  test('an env that throws in play or in a league: env, member, seed and step; nothing half-recorded', () => {
    oneLineError(arena(['play', './test/fixtures/throwing-env.js', '--agents', 'random', '--episodes', '30', '--seed', '4']), 1, /^arena: env throwing-card-v1: step\(\) threw at seed \d+ step 1 \(match \S+\): cannot read the pot$/);
    const dir = tmp();
    const db = join(dir, 't.db');
    const r = arena(['league', 'run', '--config', leagueConfig(dir, 't', { env: join(ROOT, 'test/fixtures/throwing-env.js'), players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'random' }] }), '--db', db]);
    oneLineError(r, 1, /^arena: env throwing-card-v1: step\(\) threw at seed \d+ step 1 \(match t:(\d+)\): cannot read the pot \(league t, players \w, \w; nothing of this match was recorded\)$/);
    const idx = Number(/match t:(\d+)/.exec(r.stderr)![1]);
    const store = new Store(db);
    try {
      expect(store.matchCount('t')).toBe(idx);
    } finally {
      store.close();
    }
  });

  test('a corrupt or read-only database: which file and what to do', () => {
    const dir = tmp();
    const bad = join(dir, 'bad.db');
    writeFileSync(bad, 'this is not a database, just text'.repeat(100));
    oneLineError(arena(['league', 'table', '--db', bad]), 2, /bad\.db is not an arena database \(file is not a database\); give another --db, or move the file away/);
    oneLineError(arena(['league', 'run', '--config', leagueConfig(dir, 'c'), '--db', bad]), 2, /bad\.db is not an arena database/);
    // read-only: a database this user may not write (root ignores permissions: run as nobody then)
    const roDir = join(dir, 'ro');
    mkdirSync(roDir);
    const cfg = leagueConfig(dir, 'ro');
    expect(arena(['league', 'run', '--config', cfg, '--db', join(roDir, 'ro.db'), '--quiet']).code).toBe(0);
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) {
      chmodSync(join(roDir, 'ro.db'), 0o444);
      chmodSync(roDir, 0o555);
    } else chmodSync(dir, 0o755);
    const args = [join(ROOT, 'bin', 'arena.js'), 'league', 'run', '--config', cfg, '--db', join(roDir, 'ro.db'), '--quiet'];
    const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    oneLineError({ code: run.status ?? -1, stderr: run.stderr }, 2, /ro\.db is read-only \(.*\); make the file and its folder writable, or copy the database elsewhere/);
    if (!asRoot) chmodSync(roDir, 0o755);
  });

  test('a second league run of the same league: another process holds it (a lock, not a UNIQUE-constraint error)', async () => {
    const dir = tmp();
    const cfg = join(dir, 'slow.json');
    writeFileSync(cfg, JSON.stringify({ name: 'slow', env: join(ROOT, RPS), players: [{ id: 'a', agent: `${join(ROOT, 'test/fixtures/league-agents.js')}#sleepy-random` }, { id: 'b', agent: 'random' }], budget: { matches: 1_000_000 } }));
    const db = join(dir, 'slow.db');
    const first = startArena(['league', 'run', '--config', cfg, '--db', db]);
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        let n = 0;
        try {
          const s = new Store(db);
          n = s.matchCount('slow');
          s.close();
        } catch {
          /* not created yet */
        }
        if (n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const second = arena(['league', 'run', '--config', cfg, '--db', db]);
      oneLineError(second, 2, new RegExp(`league "slow" in \\S+slow\\.db is being run by another process \\(pid ${first.child.pid} on \\S+, since [^)]+\\); wait for it to finish or stop it, then rerun to resume`));
    } finally {
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
    }
    // the lock went with the first run: a rerun resumes (a budget already spent: it ends at once)
    const done = join(dir, 'done.json');
    writeFileSync(done, JSON.stringify({ ...JSON.parse(readFileSync(cfg, 'utf8')), budget: { matches: 1 } }));
    const again = arena(['league', 'run', '--config', done, '--db', db, '--quiet']);
    expect(again.stderr).toMatch(/resuming league "slow" at match \d+\/1/);
    expect(again.code).toBe(0);
  }, 180_000);

  test('demo on a port in use', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      oneLineError(arena(['demo', '--port', String(port), '--db', join(tmp(), 'd.db'), '--no-learners']), 2, new RegExp(`^arena: --port: ${port} is already in use; pick another with --port$`));
    } finally {
      server.close();
    }
  });

  test('train: resume without a run, hidden too large, --schedule alternate:0, a corrupt state.json', () => {
    const dir = tmp();
    oneLineError(arena(['train', RPS, '--resume', '--out', join(dir, 'none')]), 2, /--resume: \S+state\.json does not exist \(no run to resume in \S+\)/);
    oneLineError(arena(['train', RPS, '--config', '{"hidden":[100000000]}', '--backend', 'cpu']), 2, /training config: hidden\.0: Too big: expected number to be <=16384/);
    oneLineError(arena(['train', RPS, '--config', '{"hidden":[16384,16384,16384]}', '--backend', 'cpu']), 2, /training config: hidden \[16384,16384,16384\] makes learner player a network of [\d,]+ parameters; the limit is 50,000,000/);
    oneLineError(arena(['train', RPS, '--schedule', 'alternate:0', '--backend', 'cpu']), 2, /--schedule: K must be an integer of at least 1, got "0"/);
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'state.json'), '{"format": "selfplay');
    oneLineError(arena(['train', RPS, '--resume', '--out', join(dir, 'broken')]), 2, /broken\/state\.json: not a readable run state \(.*\); restore it or start a new run in another folder/);
  });

  test('errors never echo megabytes of input nor repeat "(got …)"', () => {
    const huge = `{"rounds": "${'x'.repeat(2_000_000)}"}`;
    const dir = tmp();
    writeFileSync(join(dir, 'huge.json'), huge);
    const r = arena(['play', RPS, '--agents', 'random', '--params', join(dir, 'huge.json')]);
    oneLineError(r, 2, /param "rounds" must be an integer in \[1, 99\] \(got "x{10,}… \(2000002 characters\)\)/);
    expect(r.stderr.length).toBeLessThan(500);
    const numbers = arena(['play', 'countdown', '--agents', 'random', '--params', '{"numbers":[0]}']);
    oneLineError(numbers, 2, /param "numbers" must be/);
    expect(numbers.stderr.match(/\(got /g)).toHaveLength(1);
  });
});

describe('bad input accepted before is refused', () => {
  test.each([
    [['play', 'countdown', '--agents', 'greedy:{"epsilon":"x"}'], /^arena: agent "greedy": option "epsilon" must be a number in \[0, 1\] \(got "x"\)$/],
    [['play', 'deal-or-no-deal', '--agents', 'greedy:{"treshold":7}'], /^arena: agent "greedy": option "treshold" is not an option; did you mean "threshold"\? \(known: threshold\)$/],
    [['play', RPS, '--agents', 'random', '--watch', 'seat:99'], /^arena: --watch: rock-paper-scissors-v1 has seats 0-1 here, not 99$/],
    [['play', RPS, '--agents', 'random', '--seed', '1e300'], /^arena: --seed: expected a non-negative integer up to 2\^53-1, got "1e300"$/],
    [['play', RPS, '--agents', 'random', '--params', 'null'], /^arena: --params: expected a JSON object of params \(e\.g\. \{"rounds": 5\}\), got null$/],
  ])('%j', (args, re) => oneLineError(arena(args), 2, re));

  test('train --resume with different params', () => {
    const out = join(tmp(), 'run');
    const config = JSON.stringify({ episodesPerIteration: 8, hidden: [8], evalEvery: 0 });
    expect(arena(['train', RPS, '--iterations', '1', '--backend', 'cpu', '--config', config, '--out', out, '--params', '{"rounds":2}', '--quiet']).code).toBe(0);
    oneLineError(
      arena(['train', RPS, '--iterations', '2', '--backend', 'cpu', '--out', out, '--resume', '--params', '{"rounds":4}', '--quiet']),
      2,
      /--resume: the run in \S+ trained with params \{"rounds":2\}, not \{"rounds":4\} \(resume without --params to keep the run's\)/,
    );
    expect(arena(['train', RPS, '--iterations', '2', '--backend', 'cpu', '--out', out, '--resume', '--quiet']).code).toBe(0);
  });
});
