import { admitMessage, type AdmissionRefusal } from '../../app/server/message-admission';
import { TokenBucket, type RateLimit } from '../../app/server/rate-limiter';

/** A socket double and a recorder of refusals. */
function harness() {
  const disconnects: boolean[] = [];
  const refusals: Array<[AdmissionRefusal, string]> = [];
  return {
    socket: { disconnect: (close: boolean) => disconnects.push(close) },
    fail: (code: AdmissionRefusal, message: string) => refusals.push([code, message]),
    disconnects,
    refusals,
  };
}

const limit = (over: Partial<RateLimit> = {}): RateLimit => ({ burst: 2, perSecond: 0, disconnectAfter: 0, windowMs: 10_000, ...over });

describe('admitMessage', () => {
  test('admits messages within the rate and size limits', () => {
    const h = harness();
    const bucket = new TokenBucket(limit(), () => 0);
    expect(admitMessage(h.socket, bucket, [{ a: 1 }], 100, true, h.fail)).toBe(true);
    expect(h.refusals).toEqual([]);
    expect(h.disconnects).toEqual([]);
  });

  test('over the rate: an acked message is always answered, an un-acked flood at most once a second', () => {
    let now = 0;
    const h = harness();
    const bucket = new TokenBucket(limit({ burst: 1 }), () => now);
    expect(admitMessage(h.socket, bucket, [1], 100, false, h.fail)).toBe(true);
    expect(admitMessage(h.socket, bucket, [1], 100, true, h.fail)).toBe(false);
    expect(admitMessage(h.socket, bucket, [1], 100, true, h.fail)).toBe(false);
    expect(h.refusals.map((r) => r[0])).toEqual(['rate-limited', 'rate-limited']);
    h.refusals.length = 0;
    expect(admitMessage(h.socket, bucket, [1], 100, false, h.fail)).toBe(false); // first notice
    expect(admitMessage(h.socket, bucket, [1], 100, false, h.fail)).toBe(false); // silent
    now = 1500;
    expect(admitMessage(h.socket, bucket, [1], 100, false, h.fail)).toBe(false); // a second later: noticed again
    expect(h.refusals).toEqual([
      ['rate-limited', 'too many messages; slow down'],
      ['rate-limited', 'too many messages; slow down'],
    ]);
    expect(h.disconnects).toEqual([]);
  });

  test('an abusive client is disconnected, not answered', () => {
    const h = harness();
    const bucket = new TokenBucket(limit({ burst: 0, disconnectAfter: 3 }), () => 0);
    for (let i = 0; i < 2; i++) expect(admitMessage(h.socket, bucket, [1], 100, true, h.fail)).toBe(false);
    expect(h.disconnects).toEqual([]);
    expect(admitMessage(h.socket, bucket, [1], 100, true, h.fail)).toBe(false);
    expect(h.disconnects).toEqual([true]);
    expect(h.refusals).toHaveLength(2);
  });

  test('the size limit applies to the arguments as JSON, at the exact boundary', () => {
    const h = harness();
    const args = ['x'.repeat(8)]; // ["xxxxxxxx"] is 12 characters
    expect(admitMessage(h.socket, null, args, 12, false, h.fail)).toBe(true);
    expect(admitMessage(h.socket, null, args, 11, false, h.fail)).toBe(false);
    expect(h.refusals).toEqual([['too-large', 'message larger than 11 bytes']]);
  });

  test('arguments that cannot be serialized count as too large', () => {
    const h = harness();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(admitMessage(h.socket, null, [cyclic], 1e9, false, h.fail)).toBe(false);
    expect(admitMessage(h.socket, null, [10n], 1e9, false, h.fail)).toBe(false);
    expect(h.refusals.map((r) => r[0])).toEqual(['too-large', 'too-large']);
  });

  test('no bucket: no token is spent, the size is still checked', () => {
    const h = harness();
    const bucket = new TokenBucket(limit({ burst: 1 }), () => 0);
    for (let i = 0; i < 5; i++) expect(admitMessage(h.socket, null, [1], 100, false, h.fail)).toBe(true);
    expect(admitMessage(h.socket, bucket, [1], 100, false, h.fail)).toBe(true); // its one token is still there
    expect(admitMessage(h.socket, null, ['x'.repeat(200)], 100, false, h.fail)).toBe(false);
  });
});
