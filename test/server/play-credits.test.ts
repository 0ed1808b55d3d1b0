/**
 * The play hub's admission: an `act` answering a decision the server asked for is paid by that
 * decision's credit, not by the rate limit, so a seat in a fast game is never rate-limited for
 * playing; anything beyond its credits meets the limit like every other message.
 */
import { io as ioClient } from 'socket.io-client';
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import { connectSeat } from '../../app/client/seat-client';

let server: ArenaServer;
const bus = new EventBus();
beforeAll(async () => {
  // a limit no real game fits in: 2 messages, then nothing for ~17 minutes
  server = await startServer({ bus, port: 0, play: { reconnectMs: 1500 }, rateLimit: { burst: 2, perSecond: 0.001, disconnectAfter: 0 } });
});
afterAll(() => server.close());

test('seats answering every decision of a whole Deal-or-No-Deal game are never rate-limited', async () => {
  const decisions = [0, 0];
  const seats = [0, 1].map((i) => {
    const { slot, token } = server.play!.issue(`credits-${i}`, 'remote');
    // never agrees: the game runs to its turn limit (10 offers)
    const client = connectSeat({ url: server.url.replace(/\/$/, ''), token, decide: (d) => (decisions[i]++, { label: d.legal!.find((l) => l.label !== 'agree')!.label }) });
    return { agent: new RemoteAgent(server.play!, slot, 'remote', `c${i}`), client };
  });
  await Promise.all(seats.map((s) => s.client.ready));
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const result = await runMatch({ env, params, seed: 5, bus, matchId: 'credits-dond', agents: seats.map((s) => s.agent) });
  for (const s of seats) s.client.close();
  expect(result.code).toBe('ok');
  expect(result.faults).toEqual([]);
  expect(result.outcome).not.toBe('agreement');
  for (const d of decisions) expect(d).toBeGreaterThan(2); // more answers than the burst (2) allows
});

test('acts beyond the credits meet the rate limit', async () => {
  const { token } = server.play!.issue('credits-spam', 'remote');
  const socket = ioClient(server.url.replace(/\/$/, '') + '/play', { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => (socket.once('connect', resolve), socket.once('connect_error', reject)));
  const codes: string[] = [];
  for (let i = 0; i < 4; i++) {
    const reply = await socket.timeout(20_000).emitWithAck('act', { requestId: `nope-${i}`, action: 0 });
    codes.push((reply as { code: string }).code);
  }
  socket.close();
  // no decision was asked, so no credit: two tokens, then the limit
  expect(codes).toEqual(['stale', 'stale', 'rate-limited', 'rate-limited']);
});
