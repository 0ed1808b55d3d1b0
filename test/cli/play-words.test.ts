/**
 * `arena play` as a person meets it (issue 28 item 4): `--watch` in the env's words (action
 * names, event captions, the rules, the viewer's last observation as the env renders it), JSON
 * output without float noise, and a human seat's page that keeps serving its game after the
 * run until Ctrl-C, saying so.
 */
import { io } from 'socket.io-client';
import { arena, jsonLines, startArena } from './helpers';

const DOND = 'deal-or-no-deal-v1';

describe('arena play in the env\'s words', () => {
  test('--watch public: actions by name, offers as the env says them, the rules, the final view; no raw ids or JSON', () => {
    const r = arena(['play', DOND, '--agents', 'fair-split,greedy', '--seed', '3', '--watch', 'public']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^▶ deal-or-no-deal-v1 /);
    expect(lines[1]).toMatch(/^ {2}rules: Two negotiators split a pool of /);
    const actions = lines.filter((l) => /^ {4}P\d: /.test(l));
    expect(actions.length).toBeGreaterThan(1);
    for (const a of actions) expect(a).toMatch(/^ {4}P[01]: (agree|keep \d books?, \d hats? and \d balls?)$/);
    expect(lines.some((l) => /^ {4}P0 offers to keep .*; the partner would get the rest\.$/.test(l))).toBe(true);
    expect(r.stdout).not.toMatch(/seat \d → |offer \{|"keep":/);
    // the public view's last observation, as the env renders it (no seat's values)
    const view = lines.filter((l) => l.startsWith('  | '));
    expect(view[0]).toMatch(/^ {2}\| Pool: /);
    expect(view.join('\n')).toMatch(/Game over: /);
    expect(view.join('\n')).not.toMatch(/values/);
  });

  test('--watch 1: the seat\'s own view (its values), never the other seat\'s', () => {
    const r = arena(['play', DOND, '--agents', 'fair-split,greedy', '--seed', '3', '--watch', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}\| Your values \(per item\): /m);
    expect(r.stdout).not.toMatch(/Seat 0 values/);
  });

  test('--json writes returns without float noise (12 significant digits)', () => {
    // coop 0.3 makes seed 0's returns 7 + 0.3 × 2.3...: 7.699999999999999 in full precision
    const r = arena(['play', DOND, '--agents', 'fair-split,greedy', '--params', '{"coop":0.3}', '--json']);
    expect(r.code).toBe(0);
    const [episode, summary] = jsonLines(r.stdout);
    expect(episode.returns).toEqual([7.7, 10.5]);
    expect(r.stdout).not.toMatch(/\d{10}/);
    expect((summary.summary as { meanReturns: number[] }).meanReturns).toEqual([7.7, 10.5]);
    const text = arena(['play', DOND, '--agents', 'fair-split,greedy', '--params', '{"coop":0.3}']);
    expect(text.stdout).toMatch(/^episode 0 seed 0: agreement returns \[7\.7,10\.5\] in \d+ steps$/m);
  });

  test('a human seat: after the game the page keeps serving it until Ctrl-C, and says so', async () => {
    const run = startArena(['play', DOND, '--agents', 'human,fair-split', '--port', '0']);
    try {
      await run.waitFor(/play at (http:\/\/\S+)\/#\/play\/(\S+)\n/);
      const [, base, token] = /play at (http:\/\/\S+)\/#\/play\/(\S+)\n/.exec(run.stderr())!;
      const socket = io(`${base}/play`, { auth: { token }, transports: ['websocket'] });
      const labels: string[][] = [];
      socket.on('decide', (d: { requestId: string; legal: { label: string; note?: string }[] }) => {
        labels.push(d.legal.map((l) => `${l.label} (${l.note})`));
        // ask for everything first, then agree to whatever comes back
        const pick = d.legal.some((l) => l.label === 'agree') ? 'agree' : d.legal[d.legal.length - 1].label;
        socket.emit('act', { requestId: d.requestId, label: pick }, () => undefined);
      });
      await run.waitFor(/arena: games over; the page keeps serving them until Ctrl-C: replay at \S+\/#\/match\/\S+, lobby at \S+\n/);
      socket.close();
      for (const l of labels.flat()) expect(l).toMatch(/^(agree \(you get .*: worth \d+ to you\)|keep .* \(worth \d+ to you\))$/);
      const [, matchPath] = /replay at \S+\/#\/match\/(\S+),/.exec(run.stderr())!;
      await run.waitFor(/^deal-or-no-deal-v1: 1 episodes, mean returns /m);
      // the replay and the lobby are still served
      const match = await fetch(`${base}/api/matches/${matchPath}`);
      expect(match.status).toBe(200);
      expect(((await match.json()) as { match: { live: boolean } }).match.live).toBe(false);
      const recent = (await (await fetch(`${base}/api/matches/recent`)).json()) as { matches: { id: string }[] };
      expect(recent.matches.map((m) => encodeURIComponent(m.id))).toContain(matchPath);
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  test('bots only over /play: the run ends with its games (nothing to keep serving)', async () => {
    const run = startArena(['play', './examples/rock-paper-scissors.js', '--agents', 'remote,random', '--port', '0', '--params', '{"rounds":1}']);
    try {
      await run.waitFor(/connect to (http:\/\/\S+)\/play with token (\S+)\n/);
      const [, base, token] = /connect to (http:\/\/\S+)\/play with token (\S+)\n/.exec(run.stderr())!;
      const socket = io(`${base}/play`, { auth: { token }, transports: ['websocket'] });
      socket.on('decide', (d: { requestId: string; legal: { label: string }[] }) => socket.emit('act', { requestId: d.requestId, label: d.legal[0].label }, () => undefined));
      expect(await run.exited).toBe(0);
      socket.close();
      expect(run.stderr()).not.toMatch(/keeps serving/);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
