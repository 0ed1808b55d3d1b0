/** The runner's context hooks for text agents: validate (the env's verdict now), note (seat-private agent events, only while the decision is open), report. */
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import type { Agent, AgentContext } from '../../src/core/agent';
import { runMatch } from '../../src/match/runner';
import { scriptedAgent } from '../../agents/scripted';
import { rps } from '../fixtures/load';

const env = rps();
const params = env.resolveParams({ rounds: 2 });

test('validate answers the env\'s verdict for the current decision; notes become agent events for the seat only', async () => {
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const verdicts: unknown[] = [];
  const checker: Agent = {
    name: 'checker',
    act: (_obs, _legal, ctx) => {
      verdicts.push(ctx.validate!(7), ctx.validate!(1));
      ctx.note!('thought', { step: ctx.step });
      return 1;
    },
    report: () => ({ kind: 'test', requests: 2 }),
  };
  const r = await runMatch({ env, params, seed: 1, agents: [checker, scriptedAgent('rock', () => 0)], bus, matchId: 'h1' });
  expect(verdicts[0]).toMatchObject({ ok: false });
  expect(verdicts[1]).toEqual({ ok: true });
  const notes = rec.events('h1').filter((e) => e.type === 'agent');
  expect(notes.map((e) => ({ ...e, time: 0, seq: 0 }))).toEqual([0, 1].map((step) => ({ type: 'agent', matchId: 'h1', seq: 0, time: 0, visibility: { seat: 0 }, step, seat: 0, name: 'thought', data: { step } })));
  expect(r.reports).toEqual([{ kind: 'test', requests: 2 }, null]);
});

test('notes after the decision timed out, and in end(), are dropped', async () => {
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  let late: AgentContext | null = null;
  let lateNoted!: () => void;
  const noted = new Promise<void>((r) => (lateNoted = r));
  const slow: Agent = {
    name: 'slow',
    act: (_obs, _legal, ctx) =>
      new Promise((resolve) => {
        late = ctx;
        ctx.signal.addEventListener('abort', () => {
          ctx.note!('late', {});
          lateNoted();
          resolve(0);
        });
      }),
    end: (_r, ctx) => ctx.note!('end', {}),
  };
  const r = await runMatch({ env, params, seed: 1, agents: [slow, scriptedAgent('rock', () => 0)], bus, matchId: 'h2', deadlineMs: 50 });
  await noted;
  expect(late).not.toBeNull();
  expect(r.faults[0]).toMatchObject({ kind: 'timeout' });
  expect(rec.events('h2').filter((e) => e.type === 'agent')).toEqual([]);
  expect(r.reports).toBeUndefined();
});
