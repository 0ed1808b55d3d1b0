import { fairKeep } from '../../../envs/deal-or-no-deal/agents/fair-split';
import { greedyKeep } from '../../../envs/deal-or-no-deal/agents/greedy';
import { defaultRegistry } from '../../../app/catalog';
import type { Agent } from '../../../src/core/agent';
import { runMatch, type MatchResult } from '../../../src/match/runner';
import { EventBus } from '../../../src/bus/event-bus';
import type { MatchEvent } from '../../../src/core/events';
import { scriptedAgent } from '../../../agents/scripted';
import { summarize } from '../../../src/match/summary';
import { ID, INSTANCE0 } from './helpers';

async function series(params: Record<string, unknown>, names: [string, string], episodes: number): Promise<MatchResult[]> {
  const { env, params: resolved } = defaultRegistry.make(ID, params);
  const agents: Agent[] = [];
  for (let seat = 0; seat < 2; seat++) agents.push((await defaultRegistry.createAgent(names[seat], { env, params: resolved, seed: seat })).agent);
  const out: MatchResult[] = [];
  for (let k = 0; k < episodes; k++) out.push(await runMatch({ env, params: resolved, seed: 100 + k, agents }));
  return out;
}

describe('deal-or-no-deal baselines', () => {
  test('registered for the env; nash-oracle is omniscient and unrated', async () => {
    const names = defaultRegistry.agentsFor(ID).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['random', 'greedy', 'fair-split', 'nash-oracle']));
    const oracle = defaultRegistry.agentFactory('nash-oracle', ID);
    expect(oracle.rated).toBe(false);
    const { env, params } = defaultRegistry.make(ID);
    expect(oracle.create({ env, params, seed: 1 }).omniscient).toBe(true);
    expect(defaultRegistry.agentFactory('greedy', ID).rated).not.toBe(false);
  });

  test('greedy asks for its high-value items; fair-split for half its value', () => {
    // Instance 0, seat 0 values [8,1,0] over pool [1,2,3]: the book is its only above-average item.
    expect(greedyKeep([1, 2, 3], [8, 1, 0])).toBe(1); // [1,0,0]
    expect(greedyKeep([1, 4, 1], [4, 1, 2])).toBe(37); // book + ball: [1,0,1]
    expect(fairKeep([1, 2, 3], [8, 1, 0])).toBe(1); // the book alone is worth 8 >= 5
    expect(fairKeep([1, 4, 1], [4, 1, 2])).toBe(9); // [1,1,0] = 5 exactly, the fewest items worth 5
  });

  test('two nash-oracles agree on the Nash split at once (openspiel and dialogue)', async () => {
    const [os] = await series({ instance: INSTANCE0 }, ['nash-oracle', 'nash-oracle'], 1);
    expect(os.outcome).toBe('agreement');
    expect(os.returns).toEqual([10, 6]);
    expect(os.length).toBe(2);
    const [dl] = await series({ instance: INSTANCE0, protocol: 'dialogue' }, ['nash-oracle', 'nash-oracle'], 1);
    expect(dl.outcome).toBe('agreement');
    expect(dl.returns).toEqual([10, 6]);
  });

  test.each(['openspiel', 'dialogue'])('%s: every baseline pairing plays without faults; the play summary reports the metrics', async (protocol) => {
    const pairs: [string, string][] = [
      ['greedy', 'fair-split'],
      ['fair-split', 'greedy'],
      ['random', 'greedy'],
      ['nash-oracle', 'nash-oracle'],
    ];
    for (const pair of pairs) {
      const results = await series({ protocol }, pair, 40);
      expect(results.every((r) => r.code === 'ok' && r.faults.length === 0)).toBe(true);
      const { env } = defaultRegistry.make(ID);
      const summary = summarize(env, results);
      expect(Object.keys(summary.env ?? {})).toEqual(
        expect.arrayContaining(['agreementRate', 'meanScores', 'meanJoint', 'jointOfMax', 'paretoRate', 'paretoOfAll']),
      );
      if (pair[0] === 'nash-oracle') {
        expect(summary.env!.agreementRate).toBe(1);
        expect(summary.env!.paretoRate).toBe(1);
      }
    }
  });

  test('greedy options: a higher threshold agrees less often', async () => {
    const soft = await series({}, ['greedy:{"threshold":3}', 'greedy:{"threshold":3}'], 60);
    const hard = await series({}, ['greedy:{"threshold":9}', 'greedy:{"threshold":9}'], 60);
    const rate = (rs: MatchResult[]) => rs.filter((r) => r.outcome === 'agreement').length / rs.length;
    expect(rate(soft)).toBeGreaterThan(rate(hard));
  });

  test('free text from any agent passes through the runner; selections stay private on the bus', async () => {
    const { env, params } = defaultRegistry.make(ID, { protocol: 'dialogue', instance: '1,4,1 4,1,2 2,2,0' });
    const lines = ['Hi there, I mostly care about the book.', 'Fine, take the book and the ball.'];
    const talker = scriptedAgent('talker', (obs: { phase: string; seat: number }, legal) => {
      expect(legal).toBeNull();
      if (obs.phase === 'talk') return obs.seat === 0 && lines.length ? { type: 'message', text: lines.shift()! } : { type: 'selection' };
      return { type: 'choose', keep: obs.seat === 0 ? [1, 0, 1] : [0, 4, 0] };
    });
    const other = scriptedAgent('other', (obs: { phase: string }) =>
      obs.phase === 'talk' ? { type: 'message', text: lines.length ? lines.shift()! : 'ok' } : { type: 'choose', keep: [0, 4, 0] },
    );
    const bus = new EventBus();
    const events: MatchEvent[] = [];
    bus.events$.subscribe((e) => events.push(e as MatchEvent));
    const r = await runMatch({ env, params, seed: 1, agents: [talker, other], bus });
    expect(r.outcome).toBe('agreement');
    expect(r.returns).toEqual([6, 8]);
    const messages = events.filter((e) => e.type === 'message');
    expect(messages.map((m) => (m.type === 'message' ? [m.seat, m.text, m.visibility] : null))).toEqual([
      [0, 'Hi there, I mostly care about the book.', 'public'],
      [1, 'Fine, take the book and the ball.', 'public'],
    ]);
    const choices = events.filter((e) => e.type === 'action' && (e.action as { type?: string }).type === 'choose');
    expect(choices.map((e) => e.visibility)).toEqual([{ seat: 0 }, { seat: 1 }]);
  });
});
