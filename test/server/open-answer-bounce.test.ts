/**
 * Issue 28: a Countdown answer whose form cannot be read (`75 + 50 = 125`: "unknown character
 * '='") is an invalid answer, not a consumed attempt scored 0. Over the socket protocol it is
 * acked `invalid-answer` with the parser's reason — for human and remote seats alike — and the
 * decision stays open; the readable answer that follows is the seat's one attempt.
 */
import { EventBus } from '../../src/bus/event-bus';
import { defaultRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { startServer, type ArenaServer } from '../../app/server/start-server';
import { RemoteAgent } from '../../app/server/play/remote-agent';
import { connectSeat, type ActReply } from '../../app/client/seat-client';

let server: ArenaServer;
const bus = new EventBus();
beforeAll(async () => {
  server = await startServer({ bus, port: 0, play: {} });
});
afterAll(() => server.close());

let n = 0;
for (const kind of ['human', 'remote'] as const) {
  test(`a ${kind} seat: "75 + 50 = 125" bounces back with the reason; the next answer is the attempt`, async () => {
    const { slot, token } = server.play!.issue(`bounce-${kind}-${++n}`, kind);
    const agent = new RemoteAgent(server.play!, slot, kind, `b${n}`);
    const replies: ActReply[] = [];
    let secondReply!: () => void;
    const second = new Promise<void>((ok) => (secondReply = ok));
    const c = connectSeat({
      url: server.url.replace(/\/$/, ''),
      token,
      decide: () => ({ answer: '75 + 50 = 125' }),
      onReply: (r, d) => {
        replies.push(r);
        if (!r.ok) void c.socket.emitWithAck('act', { requestId: d.requestId, answer: '75 + 50' }).then((x: ActReply) => (replies.push(x), secondReply()));
      },
    });
    await c.ready;
    const env = defaultRegistry.env('countdown-v1');
    const r = await runMatch({ env, params: env.resolveParams({}), seed: 3, agents: [agent], bus, matchId: `bounce-${n}`, deadlineMs: 20_000 });
    await second;
    c.close();
    expect(replies[0]).toMatchObject({ ok: false, code: 'invalid-answer' });
    expect((replies[0] as { message: string }).message).toMatch(/^act: unknown character '=' at position 9: answer with one arithmetic expression/);
    expect(replies[1]).toMatchObject({ ok: true });
    expect(r.faults).toEqual([]);
    const attempts = (r.summary as { attempts: { answer: string; status: string }[] }).attempts;
    expect(attempts.map((a) => a.answer)).toEqual(['75 + 50']);
    expect(attempts[0].status).not.toBe('syntax');
  });
}
