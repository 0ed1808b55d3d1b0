/** Credit for rollouts: trajectories (tries cut like the trainer's), step rewards, group advantages. */
import { advantagesOf, stepReward, trajectoriesOf } from '../../src/rollouts/credit';

test('without tries: one trajectory per seat, rewarded with the seat\'s episode return', () => {
  const decisions = [{ seat: 0, step: 0 }, { seat: 1, step: 1 }, { seat: 0, step: 2 }];
  expect(trajectoriesOf(decisions, [3, -1], [])).toEqual([
    { seat: 0, try: null, decisions: [0, 2], reward: 3 },
    { seat: 1, try: null, decisions: [1], reward: -1 },
  ]);
});

test('with tries: each try is the decisions up to its try-ending reward; its reward is the try\'s', () => {
  // seat 1 (solver) makes three attempts of 2, 1 and 2 steps; seat 0 acts once
  const decisions = [{ seat: 0, step: 0 }, { seat: 1, step: 1 }, { seat: 1, step: 2 }, { seat: 1, step: 3 }, { seat: 1, step: 4 }, { seat: 1, step: 5 }];
  const rewards = [
    { seat: 1, step: 2, value: 7, endsTry: true },
    { seat: 1, step: 3, value: 0, endsTry: true },
    { seat: 1, step: 4, value: 0.5 },
    { seat: 1, step: 5, value: 10, endsTry: true },
  ];
  expect(trajectoriesOf(decisions, [0.5, 5.8], rewards)).toEqual([
    { seat: 0, try: null, decisions: [0], reward: 0.5 },
    { seat: 1, try: 0, decisions: [1, 2], reward: 7 },
    { seat: 1, try: 1, decisions: [3], reward: 0 },
    { seat: 1, try: 2, decisions: [4, 5], reward: 10.5 },
  ]);
  expect(stepReward(rewards, 1, 4)).toBe(0.5);
  expect(stepReward(rewards, 0, 4)).toBe(0);
});

test('advantages: GRPO (Bessel std) and RLOO within each group; a group of one gets 0', () => {
  const a = advantagesOf([1, 0, 0, 5], ['a', 'a', 'a', 'b']);
  const std = Math.sqrt(((2 / 3) ** 2 + 2 * (1 / 3) ** 2) / 2);
  expect(a[0].grpo).toBeCloseTo((1 - 1 / 3) / (std + 1e-4), 9);
  expect(a[1].grpo).toBeCloseTo(-1 / 3 / (std + 1e-4), 9);
  expect(a[0].rloo).toBeCloseTo(1, 12);
  expect(a[1].rloo).toBeCloseTo(-0.5, 12);
  expect(a[3]).toEqual({ grpo: 0, rloo: 0 });
});
