/**
 * How outputs compare with expected values (issue 23): integers exactly, however large (big
 * ones cross as `{"$bigint": digits}` tags), floats within the documented tolerance, booleans
 * never as numbers.
 */
import { BIGINT_KEY, bigIntTag, bigIntsAsNumbers, isBigIntTag, parseJsonExact } from '../../src/core/exact-json';
import { NUMBER_TOLERANCE, integerSemantics, jsonDepth, outputMatches } from '../../src/core/output-match';

const big = (digits: string) => ({ [BIGINT_KEY]: digits });

describe('integers compare exactly, floats within the tolerance', () => {
  test('an integer answer off by a little is wrong however large (a+b+3 against 12345678902)', () => {
    expect(outputMatches(12345678905, 12345678902)).toBe(false);
    expect(outputMatches(12345678902, 12345678902)).toBe(true);
    expect(outputMatches(1, 0)).toBe(false);
    expect(outputMatches(-3, -3)).toBe(true);
    expect(outputMatches(-0, 0)).toBe(true);
    // a float answer equal to the integer is right (Python's 3.0 == 3); one beside it is not
    expect(outputMatches(3.0, 3)).toBe(true);
    expect(outputMatches(3.0000000000000004, 3)).toBe(false);
    expect(outputMatches(2.9999999999999996, 3)).toBe(false);
  });

  test('a non-integral expected value keeps the 1e-9 relative tolerance (absolute near zero)', () => {
    expect(NUMBER_TOLERANCE).toBe(1e-9);
    expect(outputMatches(0.1 + 0.2, 0.3)).toBe(true);
    expect(outputMatches(0.3 + 2e-9, 0.3)).toBe(false);
    expect(outputMatches(1234.5 * (1 + 0.9e-9), 1234.5)).toBe(true);
    expect(outputMatches(1234.5 * (1 + 1.1e-9), 1234.5)).toBe(false);
    expect(outputMatches(0.5e-9, 1e-12)).toBe(true); // absolute below 1
    expect(outputMatches(2e-9, 1e-12)).toBe(false);
    expect(outputMatches(3, 2.5)).toBe(false);
    expect(outputMatches([1, { a: 0.1 + 0.2 }], [1, { a: 0.3 }])).toBe(true);
  });

  test('booleans are not numbers (Python True is 1 only in Python)', () => {
    expect(outputMatches(true, 1)).toBe(false);
    expect(outputMatches(1, true)).toBe(false);
    expect(outputMatches(false, 0)).toBe(false);
    expect(outputMatches(true, true)).toBe(true);
  });

  test('big integers: exact against their tags, against integral numbers, and never by rounding', () => {
    const p60 = 2n ** 60n;
    expect(outputMatches(bigIntTag(p60 + 1n), bigIntTag(p60 + 1n))).toBe(true);
    expect(outputMatches(bigIntTag(p60 + 1n), bigIntTag(p60))).toBe(false);
    // 2^60 as a double is exact, so it equals the tag of 2^60 and not that of 2^60 + 1
    expect(outputMatches(2 ** 60, bigIntTag(p60))).toBe(true);
    expect(outputMatches(2 ** 60, bigIntTag(p60 + 1n))).toBe(false);
    expect(outputMatches(bigIntTag(p60), 2 ** 60)).toBe(true);
    expect(outputMatches(bigIntTag(p60 + 1n), 2 ** 60)).toBe(false);
    // beyond 2^53 every double is an integer: no tolerance (the next double after 2^60 is 2^60 + 256)
    expect(outputMatches(bigIntTag(p60), 2 ** 60 + 256)).toBe(false);
    expect(outputMatches(2 ** 60 + 256, bigIntTag(p60))).toBe(false);
    expect(outputMatches(bigIntTag(10n ** 400n), 3)).toBe(false);
    expect(outputMatches(bigIntTag(-(10n ** 400n)), -7.5)).toBe(false);
    expect(outputMatches(bigIntTag(p60), '1152921504606846976')).toBe(false);
  });

  test('an object that only looks like a tag is an object', () => {
    expect(isBigIntTag(big('5'))).toBe(false); // a safe integer is never tagged
    expect(outputMatches(big('5'), 5)).toBe(false);
    expect(outputMatches(big('5'), big('5'))).toBe(true); // as objects
    for (const v of [big('01152921504606846977'), big('1152921504606846977x'), { ...big('1152921504606846977'), b: 1 }, [big('1152921504606846977')], null, 'x', big(1 as never)]) {
      expect(isBigIntTag(v)).toBe(false);
    }
    expect(isBigIntTag(big('9007199254740992'))).toBe(true);
    expect(isBigIntTag(big('9007199254740991'))).toBe(false);
    expect(isBigIntTag(big('-9007199254740992'))).toBe(true);
    expect(isBigIntTag(big('-9007199254740991'))).toBe(false);
  });
});

describe('JavaScript reads big integers as doubles', () => {
  test("a tag means the double its digits name; integral doubles still compare exactly", () => {
    expect(outputMatches(2 ** 60, bigIntTag('1152921504606847000'), 'double')).toBe(true);
    expect(outputMatches(2 ** 60, bigIntTag('1152921504606847000'), 'exact')).toBe(false);
    expect(outputMatches([{ a: bigIntTag(2n ** 60n + 1n) }], [{ a: 2 ** 60 }], 'double')).toBe(true);
    expect(outputMatches([{ a: bigIntTag(2n ** 60n + 1n) }], [{ a: 2 ** 60 }], 'exact')).toBe(false);
    expect(outputMatches(2 ** 60 + 256, bigIntTag(2n ** 60n), 'double')).toBe(false);
    expect(outputMatches(12345678905, 12345678902, 'double')).toBe(false);
    expect(outputMatches(0.1 + 0.2, 0.3, 'double')).toBe(true);
    expect(integerSemantics('js')).toBe('double');
    expect(integerSemantics('python')).toBe('exact');
  });
});

describe('parseJsonExact', () => {
  test('unsafe integer literals become tags; floats, safe integers and strings stay as JSON.parse reads them', () => {
    expect(parseJsonExact('[1152921504606846977, 9007199254740991, -9007199254740992, 1.5e300, 12345678901234567.5, "1152921504606846977"]')).toEqual([
      big('1152921504606846977'),
      9007199254740991,
      big('-9007199254740992'),
      1.5e300,
      12345678901234567.5,
      '1152921504606846977',
    ]);
    expect(parseJsonExact('{"a": {"b": [0, 10000000000000000000000000000]}, "s": "x\\"1234567890123456789"}')).toEqual({ a: { b: [0, big('10000000000000000000000000000')] }, s: 'x"1234567890123456789' });
    expect(parseJsonExact('1e400')).toBe(Infinity); // a float literal is a float
    expect(parseJsonExact('12345678902')).toBe(12345678902);
  });

  test('a million digits are read and compared in linear time (a program may answer with them)', () => {
    const digits = '9'.repeat(1_000_000);
    const v = parseJsonExact(`[${digits}, -${digits}]`);
    expect(v).toEqual([big(digits), big(`-${digits}`)]);
    expect(outputMatches(v, [big(digits), big(`-${digits}`)])).toBe(true);
    expect(outputMatches(v, [big(`${digits.slice(1)}8`), big(`-${digits}`)])).toBe(false);
    expect(outputMatches(big(digits), 1e300)).toBe(false);
  });

  test('strings are skipped, escaped quotes included (jsonDepth and parseJsonExact read the same way)', () => {
    expect(parseJsonExact('["\\"", 1152921504606846977, "\\\\", "1152921504606846977"]')).toEqual(['"', big('1152921504606846977'), '\\', '1152921504606846977']);
    expect(jsonDepth('["[[[", {"a": "\\"]]"}, [[]]]')).toBe(3);
    expect(jsonDepth('"[[["')).toBe(0);
    expect(jsonDepth('[]')).toBe(1);
  });

  test('bad JSON stays bad (a tag never makes an invalid literal valid)', () => {
    expect(() => parseJsonExact('[01152921504606846977]')).toThrow(SyntaxError);
    expect(() => parseJsonExact('[1152921504606846977')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{nope')).toThrow(SyntaxError);
  });

  test('bigIntsAsNumbers: what a JavaScript program receives', () => {
    expect(bigIntsAsNumbers([big('1152921504606846977'), { a: big('5'), b: [2, 'x', null, true] }])).toEqual([2 ** 60, { a: big('5'), b: [2, 'x', null, true] }]);
  });
});
