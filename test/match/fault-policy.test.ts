/** parseFaultPolicy: the CLI's --faults text ("retry:2,forfeit", "default", ...). */
import { DEFAULT_FAULT_POLICY, FaultPolicyError, parseFaultPolicy } from '../../src/match/fault-policy';

describe('parseFaultPolicy', () => {
  test('the default is no retry, then forfeit', () => {
    expect(DEFAULT_FAULT_POLICY).toEqual({ retries: 0, then: 'forfeit' });
    expect(parseFaultPolicy('')).toEqual({ retries: 0, then: 'forfeit' });
    expect(parseFaultPolicy(' , ')).toEqual({ retries: 0, then: 'forfeit' });
  });

  test('parts in any order, spaces ignored; the last of each kind wins', () => {
    expect(parseFaultPolicy('retry:2,forfeit')).toEqual({ retries: 2, then: 'forfeit' });
    expect(parseFaultPolicy('default')).toEqual({ retries: 0, then: 'default' });
    expect(parseFaultPolicy(' default , retry:12 ')).toEqual({ retries: 12, then: 'default' });
    expect(parseFaultPolicy('retry:1,retry:3,default,forfeit')).toEqual({ retries: 3, then: 'forfeit' });
  });

  test('does not change the shared default', () => {
    parseFaultPolicy('retry:5,default');
    expect(DEFAULT_FAULT_POLICY).toEqual({ retries: 0, then: 'forfeit' });
  });

  test.each([
    ['retry', 'retry'],
    ['retry:', 'retry:'],
    ['retry:-1', 'retry:-1'],
    ['retry:1.5', 'retry:1.5'],
    ['xretry:1', 'xretry:1'],
    ['retry:1x', 'retry:1x'],
    ['defaults', 'defaults'],
    ['Forfeit', 'Forfeit'],
  ])('"%s" is refused, naming the bad part', (text, part) => {
    expect(() => parseFaultPolicy(`forfeit,${text}`)).toThrow(FaultPolicyError);
    expect(() => parseFaultPolicy(text)).toThrow(`fault policy: "${part}" is not one of retry:N, forfeit, default`);
  });

  test('a long bad part is cut at 40 characters', () => {
    const long = 'x'.repeat(41);
    let err: unknown;
    try {
      parseFaultPolicy(long);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FaultPolicyError);
    expect((err as Error).name).toBe('FaultPolicyError');
    expect((err as Error).message).toBe(`fault policy: "${'x'.repeat(40)}…" is not one of retry:N, forfeit, default`);
    expect(() => parseFaultPolicy('y'.repeat(40))).toThrow(`"${'y'.repeat(40)}" is not`);
  });
});
