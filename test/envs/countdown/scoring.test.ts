import { parseExpression } from '../../../envs/countdown/expression';
import { treeText, type Tree } from '../../../envs/countdown/infix';
import { checkNumbers, extractAnswer, scoreAnswer } from '../../../envs/countdown/scoring';

const TV = [25, 50, 75, 100, 3, 6];

describe('strict parser', () => {
  test.each([
    ['2 ** 3', /"\*\*" \(power\) is not allowed \(position 3\)/],
    ['100 // 3', /"\/\/" \(integer division\) is not allowed \(position 5\)/],
    ['2.5 * 4', /decimal numbers are not allowed \("2\.5" at position 1\)/],
    ['.5 + 1', /decimal numbers are not allowed/],
    ['3 x 4', /unknown character 'x' at position 3/],
    ['3 × 4', /unknown character '×' at position 3/],
    ['1 + 2 = 3', /unknown character '=' at position 7/],
    ['-3 + 5', /unary "-" is not allowed \(position 1\)/],
    ['3 * -5', /unary "-" is not allowed \(position 5\)/],
    ['(3 + 4', /missing "\)" for "\(" at position 1/],
    ['3 + 4)', /unmatched "\)" at position 6/],
    ['3 +', /expression ends after "\+"/],
    ['3 4', /unexpected number 4 at position 3 \(missing operator\?\)/],
    ['05 + 1', /leading zero/],
    ['', /empty expression/],
    ['()', /missing operand before "\)"/],
  ])('%j is rejected', (text, reason) => {
    const r = parseExpression(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  test('precedence and left associativity', () => {
    const r = parseExpression('100 - 25 - 3 * 6 / 2');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // ((100 - 25) - ((3 * 6) / 2))
    expect(r.ast).toMatchObject({ op: '-', left: { op: '-', left: { num: 100 }, right: { num: 25 } }, right: { op: '/', left: { op: '*' } } });
  });

  test('printed trees re-parse to the same structure (parentheses only where needed)', () => {
    const leaves = [100, 6, 3, 75, 50, 25];
    const t: Tree = ['/', ['-', ['*', ['+', 0, 1], 2], 4], ['-', 3, ['-', 5, 5]]];
    const text = treeText(t, (i) => String(leaves[i]));
    expect(text).toBe('((100 + 6) * 3 - 50) / (75 - (25 - 25))');
    expect(treeText(['-', 0, ['+', 1, 2]], (i) => String(leaves[i]))).toBe('100 - (6 + 3)');
    expect(treeText(['+', ['-', 0, 1], 2], (i) => String(leaves[i]))).toBe('100 - 6 + 3');
  });
});

describe('number checks', () => {
  test('numbers not in the puzzle and numbers used too often', () => {
    expect(checkNumbers([7], TV, false)).toBe('number 7 is not in the puzzle');
    expect(checkNumbers([3, 3], TV, false)).toBe('number 3 is used 2 times but the puzzle has it once');
    expect(checkNumbers([5, 5, 5], [5, 5, 1], false)).toBe('number 5 is used 3 times but the puzzle has it 2 times');
    expect(checkNumbers([25, 50], TV, true)).toBe('not every number is used (unused: 3, 6, 75, 100)');
    expect(checkNumbers([25, 50], TV, false)).toBeNull();
  });
});

describe('uk scoring', () => {
  test('the classic 952 from 25 50 75 100 3 6 scores 10', () => {
    const r = scoreAnswer('uk', TV, 952, '((100 + 6) * 3 * 75 - 50) / 25', false);
    expect(r).toMatchObject({ status: 'ok', value: 952, score: 10, correct: true });
  });

  test('near misses: 7 within 5, 5 within 10, 0 beyond (boundaries included)', () => {
    const N = [100, 5, 2, 1];
    expect(scoreAnswer('uk', N, 112, '100 + 5 * 2', false)).toMatchObject({ status: 'ok', value: 110, score: 7 });
    expect(scoreAnswer('uk', N, 112, '100 + 5 + 2', false)).toMatchObject({ value: 107, score: 7 });
    expect(scoreAnswer('uk', N, 112, '100 + 5 + 1', false)).toMatchObject({ value: 106, score: 5 });
    expect(scoreAnswer('uk', N, 112, '100 + 2', false)).toMatchObject({ value: 102, score: 5 });
    expect(scoreAnswer('uk', N, 112, '100 + 1', false)).toMatchObject({ value: 101, score: 0, correct: false });
    expect(scoreAnswer('uk', N, 112, '(5 + 1) * 2 + 100', false)).toMatchObject({ value: 112, score: 10, correct: true });
    expect(scoreAnswer('uk', TV, 952, '(100 + 50) * 6 + 75 - 25 - 3', false)).toMatchObject({ value: 947, score: 7 });
    expect(scoreAnswer('uk', TV, 952, '100', false)).toMatchObject({ value: 100, score: 0, status: 'ok' });
  });

  test('uk arithmetic: intermediates must be positive integers, division exact', () => {
    expect(scoreAnswer('uk', TV, 952, '3 - 6 + 100', false)).toMatchObject({ status: 'arithmetic', score: 0, reason: expect.stringMatching(/3 - 6 = -3 is not a positive integer/) });
    expect(scoreAnswer('uk', TV, 952, '100 / 3', false)).toMatchObject({ status: 'arithmetic', reason: expect.stringMatching(/100 \/ 3 is not a whole number/) });
    expect(scoreAnswer('uk', TV, 952, '6 - 6', false).status).toBe('numbers');
    expect(scoreAnswer('uk', TV, 952, '75 - 75', false).status).toBe('numbers');
    expect(scoreAnswer('uk', [5, 5, 2], 10, '(5 - 5) + 2', false)).toMatchObject({ status: 'arithmetic', reason: expect.stringMatching(/5 - 5 = 0 is not a positive integer/) });
  });

  test('every rejection reason scores 0 under uk', () => {
    for (const text of ['2 ** 3', '100 // 3', '2.5', 'x', '7 + 100', '3 * 3', '']) expect(scoreAnswer('uk', TV, 952, text, false).score).toBe(0);
    expect(scoreAnswer('uk', TV, 952, '7 + 100', false).reason).toBe('number 7 is not in the puzzle');
    expect(scoreAnswer('uk', TV, 952, '3 * 3', false).reason).toBe('number 3 is used 2 times but the puzzle has it once');
    expect(scoreAnswer('uk', TV, 952, '   ', false)).toMatchObject({ status: 'missing', reason: 'empty answer' });
  });
});

describe('tinyzero scoring (every number exactly once, real division)', () => {
  const N = [44, 19, 35];
  test('exact 1.0, miss 0.1, wrong numbers 0.1, no answer 0', () => {
    expect(scoreAnswer('tinyzero', N, 98, '44 + 19 + 35', false)).toMatchObject({ score: 1, correct: true });
    expect(scoreAnswer('tinyzero', N, 98, '44 + 19 - 35', false)).toMatchObject({ status: 'ok', value: 28, score: 0.1, correct: false });
    expect(scoreAnswer('tinyzero', N, 63, '44 + 19', false)).toMatchObject({ status: 'numbers', score: 0.1, reason: 'not every number is used (unused: 35)' });
    expect(scoreAnswer('tinyzero', N, 98, '44 + 19 + 35 + 35', false)).toMatchObject({ status: 'numbers', score: 0.1 });
    expect(scoreAnswer('tinyzero', N, 98, '', false)).toMatchObject({ status: 'missing', score: 0 });
    expect(scoreAnswer('tinyzero', N, 98, '44 ** 19', false)).toMatchObject({ status: 'syntax', score: 0.1 });
  });

  test('real division: fractions in intermediates are fine, within 1e-5', () => {
    expect(scoreAnswer('tinyzero', [1, 3, 3], 1, '1 / 3 * 3', false)).toMatchObject({ score: 1, correct: true });
    expect(scoreAnswer('tinyzero', [7, 2, 4], 14, '7 / 2 * 4', false)).toMatchObject({ value: 14, score: 1 });
    expect(scoreAnswer('tinyzero', [3, 3, 5], 1, '5 / (3 - 3)', false)).toMatchObject({ status: 'arithmetic', reason: 'division by zero', score: 0.1 });
    expect(scoreAnswer('tinyzero', [3, 5, 2], 4, '3 - 5 + 2 * 3', false).status).toBe('numbers');
    expect(scoreAnswer('tinyzero', [3, 5, 2], 4, '3 - 5 + 2 * 3', false).score).toBe(0.1);
    expect(scoreAnswer('tinyzero', [3, 5, 6], 4, '3 - 5 + 6', false)).toMatchObject({ status: 'ok', score: 1 });
  });

  test('answerTag: the last <answer>…</answer> counts; no tag is no answer', () => {
    const text = 'Let me think. <answer>44 + 19</answer> no wait <answer> (44 + 19) + 35 </answer>';
    expect(scoreAnswer('tinyzero', N, 98, text, true)).toMatchObject({ score: 1, expression: '(44 + 19) + 35' });
    expect(scoreAnswer('tinyzero', N, 98, '44 + 19 + 35', true)).toMatchObject({ status: 'missing', score: 0, reason: 'no <answer>…</answer> tag in the text' });
    expect(scoreAnswer('tinyzero', N, 98, '<answer></answer>', true)).toMatchObject({ status: 'missing', score: 0 });
    expect(extractAnswer('<answer>1</answer><answer>2</answer>', true)).toEqual({ expression: '2' });
  });
});

describe('reasoning-gym scoring', () => {
  const N = [10, 20, 30, 40];
  test('1.0 correct, 0.05 wrong value or numbers, 0.01 missing or parse error', () => {
    expect(scoreAnswer('reasoning-gym', N, 100, '10 + 20 + 30 + 40', false)).toMatchObject({ score: 1, correct: true });
    expect(scoreAnswer('reasoning-gym', N, 101, '10 + 20 + 30 + 40', false)).toMatchObject({ score: 0.05, correct: false });
    expect(scoreAnswer('reasoning-gym', N, 60, '10 + 20 + 30', false)).toMatchObject({ status: 'numbers', score: 0.05 });
    expect(scoreAnswer('reasoning-gym', N, 100, '10 + 20 + 30 + 50', false)).toMatchObject({ status: 'numbers', score: 0.05, reason: 'number 50 is not in the puzzle' });
    expect(scoreAnswer('reasoning-gym', N, 100, '', false)).toMatchObject({ status: 'missing', score: 0.01 });
    expect(scoreAnswer('reasoning-gym', N, 100, '10 + 20 + 30 + 40 =', false)).toMatchObject({ status: 'syntax', score: 0.01 });
    expect(scoreAnswer('reasoning-gym', N, 100, '(10 + 20', false)).toMatchObject({ status: 'syntax', score: 0.01 });
    expect(scoreAnswer('reasoning-gym', N, 100, '10 / (40 - 20 - 20) * 30', false)).toMatchObject({ status: 'numbers' });
    expect(scoreAnswer('reasoning-gym', [10, 20, 20, 40], 100, '10 / (40 - 20 - 20)', false)).toMatchObject({ status: 'arithmetic', score: 0.01 });
  });

  test('fractions that cancel in floating point count as exact', () => {
    expect(scoreAnswer('reasoning-gym', [1, 3, 300, 1], 100, '1 / 3 * 300 * 1', false)).toMatchObject({ score: 1 });
    expect(scoreAnswer('reasoning-gym', [1, 3, 300, 2], 100, '1 / 3 * 300 + 2 - 2', false).status).toBe('numbers');
  });
});
