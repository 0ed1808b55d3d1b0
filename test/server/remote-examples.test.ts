/**
 * The remote-seat examples against a real server: the stdlib Python bot (Debian's python3,
 * socket.io over HTTP long-polling) and the JS SDK bot in a child process; and `arena play`
 * with a remote seat, whose token goes to a --tokens file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import { randomAgent } from '../../agents/random';
import { connectSeat } from '../../app/client/seat-client';
import { ROOT } from '../cli/helpers';

const PYTHON = '/usr/bin/python3';

/** Runs a child to completion, collecting its output (never blocking this process's event loop). */
function run(cmd: string, args: string[], o: { onStderr?: (text: string) => void } = {}): { done: Promise<{ code: number; stdout: string; stderr: string }>; kill(signal?: NodeJS.Signals): void } {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    o.onStderr?.(stderr);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  return { done, kill: (signal = 'SIGKILL') => child.kill(signal) };
}

let server: ArenaServer;
const bus = new EventBus();
let dir: string;
beforeAll(async () => {
  server = await startServer({ bus, port: 0, play: true });
  dir = mkdtempSync(join(tmpdir(), 'arena-remote-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function dondAgainst(slotLabel: string, start: (token: string) => ReturnType<typeof run>) {
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const { slot, token } = server.play!.issue(slotLabel, 'remote');
  const bot = start(token);
  // a bot that ends before it connects fails the test at once, with what it printed
  const exited = bot.done.then((r) => {
    throw new Error(`the bot exited (status ${r.code}) before it connected: ${r.stderr.slice(-800)}`);
  });
  exited.catch(() => undefined);
  await Promise.race([server.play!.whenConnected(slot), exited]);
  const results = [];
  for (let k = 0; k < 2; k++) {
    results.push(await runMatch({ env, params, seed: k, bus, matchId: `${slotLabel}-${k}`, deadlineMs: 30_000, agents: [new RemoteAgent(server.play!, slot, 'remote', slotLabel), randomAgent.create({ env, params, seed: k })] }));
  }
  return { results, out: await bot.done };
}

test('the Python example (standard library only) plays whole matches', async () => {
  if (!existsSync(PYTHON)) throw new Error('Debian python3 is required (apt-get install python3)');
  const { results, out } = await dondAgainst('py-bot', (token) => run(PYTHON, ['examples/bots/remote-bot.py', '--url', server.url, '--token', token, '--matches', '2']));
  expect(results.map((r) => r.code)).toEqual(['ok', 'ok']);
  expect(results.every((r) => r.faults.length === 0)).toBe(true);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.slice(0, 2).map((l) => l.match)).toEqual(['py-bot-0', 'py-bot-1']);
  expect(lines[0].returns).toEqual(results[0].returns);
  expect(lines[2]).toMatchObject({ matches: 2 });
});

test('the JS SDK example in a child process plays whole matches; a wrong token is refused', async () => {
  const { results, out } = await dondAgainst('js-bot', (token) => run(process.execPath, ['examples/bots/remote-bot.js', '--url', server.url, '--token', token, '--matches', '2']));
  expect(results.map((r) => r.code)).toEqual(['ok', 'ok']);
  expect(out.code).toBe(0);
  expect(JSON.parse(out.stdout.trim())).toMatchObject({ matches: 2 });
  const bad = await run(process.execPath, ['examples/bots/remote-bot.js', '--url', server.url, '--token', 'wrong']).done;
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/seat refused: unauthorized/);
});

test('arena play with a remote seat: the token goes to a 0600 file; the bot connects and the match is played', async () => {
  const tokens = join(dir, 'tokens.json');
  let started: () => void;
  const written = new Promise<void>((r) => (started = r));
  const arena = run(process.execPath, ['bin/arena.js', 'play', 'deal-or-no-deal-v1', '--agents', 'remote,fair-split', '--episodes', '2', '--json', '--tokens', tokens], {
    onStderr: (text) => {
      if (/token written to/.test(text)) started();
    },
  });
  await written;
  expect(statSync(tokens).mode & 0o777).toBe(0o600);
  const seat = (JSON.parse(readFileSync(tokens, 'utf8')) as Record<string, { kind: string; url: string; token: string }>)['seat-0'];
  expect(seat.kind).toBe('remote');
  const bot = run(PYTHON, ['examples/bots/remote-bot.py', '--url', seat.url, '--token', seat.token, '--matches', '2']);
  const [a, b] = await Promise.all([arena.done, bot.done]);
  expect(a.code).toBe(0);
  expect(a.stderr).not.toContain(seat.token);
  expect(a.stdout).not.toContain(seat.token);
  const lines = a.stdout.trim().split('\n').map((l) => JSON.parse(l) as { agents?: string[]; code?: string });
  expect(lines[0].agents).toEqual(['remote:seat-0', 'fair-split']);
  expect(lines.slice(0, 2).map((l) => l.code)).toEqual(['ok', 'ok']);
  expect(b.stderr).toBe('');
  expect(b.code).toBe(0);
});

test('arena play with a human seat prints the page URL; a client with that token plays the seat; the page stays until Ctrl-C', async () => {
  let url!: (u: string) => void;
  const printed = new Promise<string>((r) => (url = r));
  let stopped = false;
  const arena = run(process.execPath, ['bin/arena.js', 'play', 'deal-or-no-deal-v1', '--agents', 'human,fair-split', '--json'], {
    onStderr: (text) => {
      const m = /human seat "seat-0": play at (http:\/\/127\.0\.0\.1:\d+)\/#\/play\/([A-Za-z0-9_-]+)/.exec(text);
      if (m) url(`${m[1]} ${m[2]}`);
      // after its games a run with a human seat keeps its page up until Ctrl-C
      if (!stopped && /games over; the page keeps serving them until Ctrl-C/.test(text)) (stopped = true, arena.kill('SIGINT'));
    },
  });
  const [base, token] = (await printed).split(' ');
  const seat = connectSeat({ url: base, token, decide: (d) => ({ label: d.legal!.some((l) => l.label === 'agree') ? 'agree' : d.legal![0].label }) });
  await seat.ready;
  const a = await arena.done;
  seat.close();
  expect(a.code).toBe(0);
  const line = JSON.parse(a.stdout.trim().split('\n')[0]) as { agents: string[]; code: string };
  expect(line).toMatchObject({ agents: ['human:seat-0', 'fair-split'], code: 'ok' });
});

test('arena league run with a remote player: its token in --tokens, the bot plays every match it is drawn into', async () => {
  const config = join(dir, 'league.json');
  const tokens = join(dir, 'league-tokens.json');
  writeFileSync(config, JSON.stringify({ name: 'remote-cli', env: 'deal-or-no-deal-v1', seed: 2, players: [{ id: 'py-bot', agent: 'remote' }, { id: 'fair', agent: 'fair-split' }, { id: 'rnd', agent: 'random' }], matchmaking: { mode: 'random' }, ratings: { bootstrap: 10 }, budget: { matches: 6 }, deadlineMs: 20000 }));
  let written!: () => void;
  const ready = new Promise<void>((r) => (written = r));
  const league = run(process.execPath, ['bin/arena.js', 'league', 'run', '--config', config, '--db', join(dir, 'league.db'), '--tokens', tokens, '--quiet'], {
    onStderr: (text) => {
      if (/token written to/.test(text)) written();
    },
  });
  await ready;
  const seat = (JSON.parse(readFileSync(tokens, 'utf8')) as Record<string, { url: string; token: string }>)['py-bot'];
  const bot = run(PYTHON, ['examples/bots/remote-bot.py', '--url', seat.url, '--token', seat.token, '--matches', '1000']);
  const l = await league.done;
  bot.kill();
  expect(l.code).toBe(0);
  expect(l.stderr).toMatch(/league "remote-cli": 6\/6 matches/);
  const matches = run(process.execPath, ['bin/arena.js', 'league', 'matches', '--db', join(dir, 'league.db'), '--json']);
  const recorded = (await matches.done).stdout.trim().split('\n').map((x) => JSON.parse(x) as { code: string; seats: { player: string }[]; faults: unknown[] });
  expect(recorded).toHaveLength(6);
  const withBot = recorded.filter((m) => m.seats.some((s) => s.player === 'py-bot'));
  expect(withBot.length).toBeGreaterThan(0);
  for (const m of withBot) expect(m).toMatchObject({ code: 'ok', faults: [] });
});
