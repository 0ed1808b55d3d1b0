/**
 * `arena replay --rerun` verdicts: an effect re-performed with the registry's handler is `same`
 * (equal, clock fields aside), `different` (exit 1), or — for handlers whose results differ on
 * every run by nature (fresh secret inputs, timings) and that say so with `compare` — `varies`,
 * reported but not a failure of determinism.
 */
import type { EffectHandler } from '../../src/core/effects';
import { Registry } from '../../src/core/registry';
import { replayCommand } from '../../app/cli/commands/replay';
import { rerunEffect } from '../../app/cli/commands/rerun';
import { turnsEnv } from '../match/turns-env';

/** Runs replay --rerun over the turns env with `roll` effects; stdout lines and the exit code. */
async function replay(handler: EffectHandler, json = false): Promise<{ code: number; lines: string[] }> {
  const registry = new Registry();
  registry.registerEnv(turnsEnv({ effect: 'roll' }));
  registry.registerEffect('roll', handler);
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (lines.push(String(s).trimEnd()), true));
  try {
    const actions = JSON.stringify([{ '-1': 0 }, { '0': 1 }, { '-1': 20 }, { '1': 2 }]);
    const code = await replayCommand(registry, 'turns-v1', { seed: 5, actions, rerun: true, json });
    return { code, lines };
  } finally {
    write.mockRestore();
  }
}

/** A handler answering what was recorded (step 0: 0, step 2: 20) plus `delta`. */
const roll = (delta: number, compare?: EffectHandler['compare']): EffectHandler => Object.assign(async (_req: unknown, ctx: { step: number }) => ctx.step * 10 + delta, compare ? { compare } : {});

describe('replay --rerun verdicts', () => {
  test('the recorded result again: same, exit 0', async () => {
    const r = await replay(roll(0));
    expect(r.code).toBe(0);
    expect(r.lines.filter((l) => l.includes('rerun of the roll effect: same result'))).toHaveLength(2);
    expect(r.lines.at(-1)).toBe('rerun: every effect gave the recorded result');
  });

  test('another result from a handler without compare: DIFFERENT with the path, exit 1', async () => {
    const r = await replay(roll(1));
    expect(r.code).toBe(1);
    expect(r.lines.some((l) => l === 'step 0: rerun of the roll effect: DIFFERENT: $: recorded 0, now 1')).toBe(true);
    expect(r.lines.at(-1)).toBe('rerun: 2 effect(s) gave a different result');
  });

  test("a handler's compare says the figures vary: reported, not a failure (exit 0)", async () => {
    const r = await replay(roll(1, () => ({ verdict: 'varies', detail: 'fresh inputs' })));
    expect(r.code).toBe(0);
    expect(r.lines.filter((l) => l.endsWith('rerun of the roll effect: same verdict, figures vary: fresh inputs'))).toHaveLength(2);
    expect(r.lines.at(-1)).toBe('rerun: every effect gave the recorded verdict; 2 gave the recorded verdict with other figures (fresh inputs, timings)');
    const j = await replay(roll(1, () => ({ verdict: 'varies', detail: 'fresh inputs' })), true);
    expect(j.lines.map((l) => JSON.parse(l)).filter((o) => o.rerun === 'varies')).toHaveLength(2);
    expect(JSON.parse(j.lines.at(-1)!)).toEqual({ rerun: { differences: 0, varied: 2 } });
  });

  test("a handler's compare says the verdict changed: DIFFERENT, exit 1", async () => {
    const r = await replay(roll(0, (rec, again) => (rec === 20 ? { verdict: 'different', detail: `code: recorded ok, now wrong (${String(again)})` } : { verdict: 'same' })));
    expect(r.code).toBe(1);
    expect(r.lines).toContain('step 2: rerun of the roll effect: DIFFERENT: code: recorded ok, now wrong (20)');
    expect(r.lines).toContain('step 0: rerun of the roll effect: same result');
  });

  test('no handler for the kind: different, naming the kind', async () => {
    const registry = new Registry();
    expect(await rerunEffect(registry, 'x', 0, 1, { kind: 'nothing', request: null }, 1)).toEqual({ verdict: 'different', detail: 'no handler for effect "nothing" here' });
  });
});
