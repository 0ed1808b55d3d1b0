import { rankRows } from '../../app/server/leaderboard';
import { TokenBucket } from '../../app/server/rate-limiter';
import { authorizeView } from '../../app/server/view-policy';
import { JoinSchema, viewerOf } from '../../app/server/protocol';

describe('TokenBucket', () => {
  test('allows a burst, refills at the sustained rate, and flags abuse', () => {
    let now = 1000;
    const b = new TokenBucket({ burst: 3, perSecond: 2, disconnectAfter: 5, windowMs: 10_000 }, () => now);
    expect([b.take(), b.take(), b.take(), b.take()]).toEqual([true, true, true, false]);
    now += 500; // one token back
    expect([b.take(), b.take()]).toEqual([true, false]);
    expect(b.abusive).toBe(false);
    b.take();
    b.take();
    b.take();
    expect(b.abusive).toBe(true);
  });
  test('notifies at most once a second', () => {
    let now = 0;
    const b = new TokenBucket(undefined, () => now);
    expect(b.shouldNotify()).toBe(true);
    expect(b.shouldNotify()).toBe(false);
    now = 1000;
    expect(b.shouldNotify()).toBe(true);
  });
});

describe('rankRows', () => {
  test('equal ratings (as shown, 0.1 point) share a rank, per role; overlapping intervals alone do not', () => {
    const rows = rankRows([
      { player: 'a', role: 'x', rating: 10, lo: 8, hi: 12, rank: 0 },
      { player: 'b', role: 'x', rating: 9, lo: 7, hi: 11, rank: 0 },
      { player: 'c', role: 'x', rating: 5, lo: 4, hi: 6, rank: 0 },
      { player: 'd', role: 'w', rating: 12.12831161644861, rank: 0 },
      { player: 'e', role: 'w', rating: 12.1283116164487, rank: 0 },
      { player: 'f', role: 'w', rating: 0, rank: 0 },
    ]);
    expect(rows.map((r) => `${r.role}:${r.player}:${r.rank}${r.tied ? '=' : ''}`)).toEqual(['w:d:1=', 'w:e:1=', 'w:f:3', 'x:a:1', 'x:b:2', 'x:c:3']);
  });
});

describe('view policy and protocol', () => {
  test('public always; private views of live matches only with the flag; finished matches reveal', () => {
    const strict = { allowOmniscient: false, revealFinished: true };
    expect(authorizeView('public', { live: true, seats: 2 }, strict)).toEqual({ ok: true });
    expect(authorizeView('omniscient', { live: true, seats: 2 }, strict)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(authorizeView(1, { live: true, seats: 2 }, strict)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(authorizeView('omniscient', { live: false, seats: 2 }, strict)).toEqual({ ok: true });
    expect(authorizeView('omniscient', { live: false, seats: 2 }, { allowOmniscient: false, revealFinished: false })).toMatchObject({ ok: false });
    expect(authorizeView(0, { live: true, seats: 2 }, { allowOmniscient: true, revealFinished: true })).toEqual({ ok: true });
    expect(authorizeView(2, { live: false, seats: 2 }, strict)).toMatchObject({ ok: false, code: 'bad-request' });
  });
  test('join messages: views in three spellings; junk rejected naming the field', () => {
    expect(viewerOf(JoinSchema.parse({ matchId: 'm' }).view)).toBe('public');
    expect(viewerOf(JoinSchema.parse({ matchId: 'm', view: 'seat:3' }).view)).toBe(3);
    expect(viewerOf(JoinSchema.parse({ matchId: 'm', view: { seat: 4 } }).view)).toBe(4);
    const bad = JoinSchema.safeParse({ matchId: 'a b', view: 'all' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['matchId', 'view']));
  });
});
