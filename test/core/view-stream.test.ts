import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { make } from '../../app/catalog';
import { checkEnv, formatReport } from '../../src/core/conformance/check-env';
import { playout } from '../../src/core/conformance/playout';
import { checkViewStream } from '../../src/core/conformance/stream-check';
import type { MatchEvent } from '../../src/core/events';
import { Rng } from '../../src/core/rng';
import { ViewSequence, projectEvents, viewSeqAt } from '../../src/core/view-stream';
import { canSee, type TeamOf, type Viewer } from '../../src/core/visibility';

/** The projection as it was before issue 15: a filter that keeps the log's global numbers. */
const globalNumbers = (events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf) => events.filter((e) => canSee(e.visibility, viewer, teamOf));
import { randomAgent } from '../../agents/random';
import { runMatch } from '../../src/match/runner';
import { makeSeerEnv } from './conformance-fixtures';

type Turn = Extract<MatchEvent, { type: 'turn' }>;
const ev = (seq: number, visibility: MatchEvent['visibility']): Turn => ({ matchId: 'm', seq, time: 0, visibility, type: 'turn', step: seq, toAct: [] });
const steps = (events: MatchEvent[]) => (events as Turn[]).map((e) => [e.step, e.seq]);
const teamOf = (seat: number) => (seat === 0 ? 'wolves' : 'villagers');

describe('per-view sequences', () => {
  const log = [ev(0, 'omniscient'), ev(1, 'public'), ev(2, { seat: 1 }), ev(3, { team: 'wolves' }), ev(4, 'public')];

  test('each view numbers the events it may see 0, 1, 2...', () => {
    expect(steps(projectEvents(log, 'public', teamOf))).toEqual([[1, 0], [4, 1]]);
    expect(steps(projectEvents(log, 1, teamOf))).toEqual([[1, 0], [2, 1], [4, 2]]);
    expect(steps(projectEvents(log, 0, teamOf))).toEqual([[1, 0], [3, 1], [4, 2]]);
    expect(projectEvents(log, 'omniscient', teamOf).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(log[4].seq).toBe(4); // the log itself is untouched
  });

  test('viewSeqAt labels a global position in a view; ViewSequence continues a snapshot', () => {
    expect(viewSeqAt(log, 'public', teamOf, 0)).toBe(-1);
    expect(viewSeqAt(log, 'public', teamOf, 1)).toBe(0); // the event at upTo counts
    expect(viewSeqAt(log, 'public', teamOf, 3)).toBe(0);
    expect(viewSeqAt(log, 1, teamOf, 3)).toBe(1);
    const seq = new ViewSequence('public', teamOf, 1);
    expect(seq.next(log[2])).toBeNull();
    expect(seq.next(log[4])!.seq).toBe(1);
    expect(seq.last).toBe(1);
  });
});

describe('the view-stream check', () => {
  test('werewolf: the public stream is numbered without gaps in a real match (the night leak of issue 15)', async () => {
    const { env, params } = make('werewolf-v1', { preset: 'arena', revealOnDeath: false });
    const bus = new EventBus();
    const rec = new MemoryRecorder(bus);
    const r = await runMatch({ env, params, seed: 11, agents: env.seats(env.init(params, 11)).map(() => randomAgent.create({ env, params, seed: 1 })), bus });
    const all = rec.events(r.matchId);
    const created = all.find((e) => e.type === 'match.created')!;
    const seatTeams = created.type === 'match.created' ? created.seats.map((s) => s.team) : [];
    const pub = projectEvents(all, 'public', (s) => seatTeams[s]);
    expect(pub.map((e) => e.seq)).toEqual(pub.map((_, i) => i));
    // The raw log has gaps between public events (hidden night events): exactly what a view must not see.
    const raw = globalNumbers(all, 'public', (s) => seatTeams[s]).map((e) => e.seq);
    expect(raw.some((s, i) => i > 0 && s - raw[i - 1] > 1)).toBe(true);
  });

  test('a projection that keeps the global numbers fails the check on werewolf (the leak reproduced)', () => {
    const { env, params } = make('werewolf-v1', { preset: 'arena', debateTurns: 0, revealOnDeath: false });
    const traces = [1, 2, 3].map((seed) => playout(env, params, seed, Rng.fromSeed(seed), { limit: env.maxLengthFor(params), keepStates: true }));
    const leaky = checkViewStream(env, traces, 1, globalNumbers);
    expect(leaky.problems.length).toBeGreaterThan(0);
    expect(leaky.problems[0]).toMatch(/the public stream numbers event \d+ .* so its numbering counts hidden events, when only seat \d+'s private information changes/);
    expect(checkViewStream(env, traces, 1).problems).toEqual([]);
  });

  test('a public turn that names only the seer is caught; asking everyone at night passes', () => {
    const loud = checkEnv(makeSeerEnv(false), { episodes: 6 });
    expect(loud.checks.filter((c) => !c.ok).map((c) => c.name)).toContain('view-stream');
    expect(formatReport(loud)).toMatch(/the public stream asks different seats to act at step 0 .* when only seat \d's private information changes/);
    const quiet = checkEnv(makeSeerEnv(true), { episodes: 6 });
    if (!quiet.ok) console.log(formatReport(quiet));
    expect(quiet.ok).toBe(true);
    // ... and the quiet env's hidden check event does shift the global numbers, which the check sees through the projection:
    const traces = [1, 2, 3].map((seed) => playout(makeSeerEnv(true), {}, seed, Rng.fromSeed(seed), { limit: 4, keepStates: true }));
    expect(checkViewStream(makeSeerEnv(true), traces, 1, globalNumbers).problems[0]).toMatch(/numbering counts hidden events/);
  });
});
