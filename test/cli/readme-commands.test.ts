/**
 * Issues 16 and 28: every `arena` command that README.md and docs/*.md show runs as shown, in
 * order (test/cli/doc-commands.ts finds them: shell blocks and inline `npx arena ...` spans),
 * from a scratch folder holding the repo's `examples/`, so files it writes stay there. What the
 * reader's machine would provide is provided, and only that:
 *
 * - `--port N` becomes 0 (any free port), so the test never collides with a running server;
 * - `~/games/...` is a scratch HOME holding the Kuhn poker files of docs/env-authoring.md
 *   (test/fixtures/outside/);
 * - `redis://127.0.0.1:6379` is a throwaway redis-server (test/scale/redis-server.ts; those
 *   commands are skipped, saying why, where redis-server is not installed);
 * - an LLM endpoint (`"baseURL": ...`, vLLM, llama.cpp, OpenAI) is a local mock server that
 *   samples: a legal name at random, and for Countdown's solver the exact solver's expression
 *   half the time, else a sum of two numbers (so rewards differ, as a sampling model's do);
 *   `OPENAI_API_KEY` is set to a dummy.
 *
 * Commands that run until stopped (servers, seats waiting for a person or a bot, leagues of
 * hundreds of matches, an SPRT of hundreds of games) are listed in LONG with the reason: each is
 * started, must print what shows it works, and must stop on Ctrl-C (SIGINT) without a stack trace.
 * Placeholders (`npx arena <command> --help`, `npx arena ...`) and commands on files of the
 * reader's own project are listed in SKIP with the reason. Every `rollouts` command must produce
 * non-zero GRPO advantages: a file of zero advantages teaches a trainer nothing.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { legalNamesOf, startMockOpenAI, type MockOpenAI, type MockRequest } from '../../agents/llm/mock-server';
import { solveUk } from '../../envs/countdown/solver-uk';
import { REDIS_SERVER, startRedis, type TestRedis } from '../scale/redis-server';
import { docCommands, words } from './doc-commands';
import { ROOT } from './helpers';

const BIN = resolve(ROOT, 'bin', 'arena.js');

/** Commands that do not end by themselves: why, and the output that shows they work. First match wins. */
const LONG: { match: RegExp; reason: string; ready: RegExp }[] = [
  { match: /--agents human\b/, reason: 'waits for a person at the page', ready: /#\/play\// },
  { match: /--agents remote\b/, reason: 'waits for a bot to connect', ready: /tokens|seats\.json/ },
  { match: /^league run .*--tokens/, reason: 'a league waiting for its remote player', ready: /token written to seats\.json/ },
  { match: /^league run .*--redis/, reason: 'schedules matches until workers have played the budget', ready: /schedules its matches on the workers of redis:\/\// },
  { match: /^tournament run .*--redis/, reason: 'schedules games until workers have played them', ready: /schedules its games on the workers of redis:\/\// },
  { match: /^league run --config examples\/leagues\/deal-or-no-deal\.json/, reason: '300 matches and a learner: minutes', ready: /training backend|league deal-or-no-deal/ },
  { match: /^league run --config examples\/leagues\/countdown-coevolution\.json/, reason: '1,000 matches and two learners: minutes', ready: /training backend|league countdown-coevolution/ },
  { match: /^worker /, reason: 'a worker waits for jobs', ready: /worker .*: (connected|playing)/ },
  { match: /^sprt /, reason: 'hundreds of games to a decision', ready: /LLR/ },
  { match: /^env-serve /, reason: 'a server', ready: /http:\/\/127\.0\.0\.1:\d+/ },
  { match: /^serve .*--redis/, reason: 'a server following the workers', ready: /serving arena\.db at http.*live matches from redis/ },
  { match: /^serve /, reason: 'a server', ready: /serving arena\.db at http/ },
  { match: /^demo /, reason: 'a server with endless leagues', ready: /watch live at http/ },
];

/** Documented text that is not a command to run here, and why. */
const SKIP: { match: RegExp; reason: string }[] = [
  { match: /<[a-z-]+>|\.\.\.$/, reason: 'a placeholder in prose, not a command' },
  { match: /^npx arena check \.\/src\/my-env\.js$/, reason: "runs in the reader's own project (./src/my-env.js is theirs)" },
];

/** A deterministic "sampling model": see the module comment. */
function sampler(req: MockRequest, n: number) {
  const pick = (k: number) => ((n + 1) * 2654435761) % 4294967296 % k;
  const names = legalNamesOf(req);
  if (names.length) return { content: JSON.stringify({ action: names[pick(names.length)] }) };
  const user = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const puzzle = /Numbers: ([\d ]+)\. Target: (\d+)\./.exec(user);
  if (puzzle) {
    const numbers = puzzle[1].trim().split(/\s+/).map(Number);
    const answer = pick(2) === 0 ? solveUk(numbers, Number(puzzle[2])).expression : `${numbers[0]} + ${numbers[1]}`;
    return { content: JSON.stringify({ action: answer }) };
  }
  return { content: JSON.stringify({ action: 'true' }) };
}

/** The GRPO advantages of a rollouts file (JSONL, or verl's Parquet read back with hyparquet). */
function advantages(file: string, verl: boolean): number[] {
  if (!verl) return readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { advantage: { grpo: number } }).advantage.grpo);
  const r = spawnSync(process.execPath, [join(ROOT, 'test', 'fixtures', 'read-parquet.mjs'), file], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { rows: { extra_info: { advantage_grpo: number } }[] }).rows.map((x) => x.extra_info.advantage_grpo);
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv, long: (typeof LONG)[number] | undefined): Promise<{ code: number | string; out: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env });
    let out = '';
    let stderr = '';
    let ready = false;
    const limit = long ? 120_000 : 280_000;
    const timer = setTimeout(() => (child.kill('SIGKILL'), fail(new Error(`${long ? `no output matching ${long.ready}` : 'not done'} within ${limit / 1000} s: ${out.slice(-800)}`))), limit);
    const check = () => {
      if (long && !ready && long.ready.test(out)) {
        ready = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', (d: Buffer) => ((out += d.toString()), check()));
    child.stderr.on('data', (d: Buffer) => ((out += d.toString()), (stderr += d.toString()), check()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (long && !ready) fail(new Error(`exited before ${long.ready}: ${out.slice(-800)}`));
      else done({ code: code ?? signal ?? -1, out, stderr });
    });
  });
}

describe('the commands of README.md and docs/*.md', () => {
  const commands = docCommands(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'arena-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'), 'dir');
  const home = join(dir, 'home');
  mkdirSync(join(home, 'games'), { recursive: true });
  for (const f of readdirSync(join(ROOT, 'test', 'fixtures', 'outside'))) copyFileSync(join(ROOT, 'test', 'fixtures', 'outside', f), join(home, 'games', f));
  let llm: MockOpenAI;
  let redis: TestRedis | null = null;
  beforeAll(async () => {
    llm = await startMockOpenAI({ respond: sampler });
    if (REDIS_SERVER && commands.some((c) => c.text.includes('--redis'))) redis = await startRedis();
  });
  afterAll(async () => {
    await llm.close();
    await redis?.stop();
  });

  test('the README and the docs show the commands', () => {
    expect(commands.length).toBeGreaterThanOrEqual(50);
    for (const cmd of ['envs', 'check', 'play', 'rollouts', 'golden', 'replay', 'tasks', 'league', 'tournament', 'sprt', 'env-serve', 'serve', 'train', 'demo', 'worker']) {
      expect(commands.some((c) => c.text.startsWith(`npx arena ${cmd} `))).toBe(true);
    }
    for (const f of ['README.md', 'docs/env-authoring.md', 'docs/env-server.md', 'docs/llm.md', 'docs/protocol.md', 'docs/rollouts.md']) expect(commands.some((c) => c.file === f)).toBe(true);
  });

  for (const [i, c] of commands.entries()) {
    const skip = SKIP.find((s) => s.match.test(c.text));
    const args = words(c.text).slice(2);
    const text = args.join(' ');
    const long = LONG.find((l) => l.match.test(text));
    const name = `${i + 1}: ${c.file}:${c.line}: ${c.text.length > 160 ? `${c.text.slice(0, 157)}...` : c.text}`;
    if (skip) {
      test.skip(`${name} (${skip.reason})`, () => undefined);
      continue;
    }
    test(`${name}${long ? ` (runs until stopped: ${long.reason})` : ''}`, async () => {
      if (c.text.includes('--redis') && !redis) {
        // eslint-disable-next-line no-console
        console.warn(`skipped "${c.text}": redis-server is not installed (apt-get install redis-server; .ci/run installs it)`);
        return;
      }
      const actual = adapt(args, home, llm.baseURL, redis?.url);
      const env = { ...process.env, FORCE_COLOR: '0', HOME: home, OPENAI_API_KEY: 'sk-test-not-a-key' };
      const r = await run(actual, dir, env, long);
      expect(r.out).not.toMatch(/\n\s+at /);
      if (long) {
        // 0: stopped cleanly; 130: interrupted where there was nothing to finish (a seat waiting,
        // env-serve); an SPRT stopped before a decision reports and exits 3 (undecided)
        expect([0, 130, ...(args[0] === 'sprt' ? [3] : [])]).toContain(r.code);
        return;
      }
      if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.out.slice(-800)}`);
      if (args[0] === 'rollouts') expectAdvantages(actual, dir);
    }, 300_000);
  }
});

/** The command as run here (see the module comment): ports, HOME, Redis and LLM endpoints. */
function adapt(args: readonly string[], home: string, llmURL: string, redisURL: string | undefined): string[] {
  return args.map((a, k) => {
    if (args[k - 1] === '--port') return '0';
    let out = a.replace(/(^|,)~\//g, `$1${home}/`);
    if (redisURL) out = out.replace('redis://127.0.0.1:6379', redisURL);
    return out.replace(/"baseURL":"[^"]*"/g, `"baseURL":${JSON.stringify(llmURL)}`);
  });
}

/** A rollouts command's file holds GRPO advantages that are not all zero. */
function expectAdvantages(args: readonly string[], dir: string): void {
  const out = args[args.indexOf('--out') + 1];
  const adv = advantages(join(dir, out), args.includes('verl'));
  expect(adv.length).toBeGreaterThan(0);
  expect(adv.some((x) => x !== 0)).toBe(true);
}

