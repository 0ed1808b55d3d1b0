/** The page's number formatter (web/js/format.js), run in Node as the page runs it. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadWebModule } from './web-module';

/** web/js/format.js's exports (the page is type-checked on its own: web/tsconfig.json). */
interface Format {
  MIN_INTERVAL_GAMES: number;
  num(x: unknown, d?: number): string;
  elo(x: unknown, o?: { signed?: boolean }): string;
  pct(x: unknown, d?: number): string;
  interval(lo: unknown, hi: unknown, games: unknown, fmt: (x: unknown) => string): string;
  eloWithInterval(e: { elo: unknown; eloLo: unknown; eloHi: unknown; games: unknown }): string;
  rankRange(lo: unknown, hi: unknown, games: unknown): string;
}
const f = loadWebModule<Format>('format.js');

describe('num', () => {
  test("integers keep their zeros; decimals lose only their own trailing zeros", () => {
    expect(f.num(1500)).toBe('1500');
    expect(f.num(1500, 0)).toBe('1500');
    expect(f.num(100, 3)).toBe('100');
    expect(f.num(1419.97, 0)).toBe('1420');
    expect(f.num(1499.6, 0)).toBe('1500');
    expect(f.num(1419.97, 1)).toBe('1420');
    expect(f.num(10.5, 3)).toBe('10.5');
    expect(f.num(0.1 + 0.2, 3)).toBe('0.3');
    expect(f.num(-0.30000000000000004, 3)).toBe('-0.3');
    expect(f.num(2.25)).toBe('2.25');
    expect(f.num(120.0004, 2)).toBe('120');
  });
  test('negative zero and non-numbers', () => {
    expect(f.num(-0.0001, 2)).toBe('0');
    expect(f.num(-0)).toBe('0');
    expect(f.num(NaN)).toBe('NaN');
    expect(f.num(Infinity)).toBe('Infinity');
    expect(f.num(null)).toBe('null');
    expect(f.num('7')).toBe('7');
  });
});

describe('elo', () => {
  test('whole points; signed differences; infinities from numbers or the API strings', () => {
    expect(f.elo(1419.97)).toBe('1420');
    expect(f.elo(1500)).toBe('1500');
    expect(f.elo(12.4, { signed: true })).toBe('+12');
    expect(f.elo(-5.2, { signed: true })).toBe('−5');
    expect(f.elo(-0.2, { signed: true })).toBe('+0');
    expect(f.elo(0, { signed: true })).toBe('+0');
    expect(f.elo('inf', { signed: true })).toBe('+∞');
    expect(f.elo(-Infinity, { signed: true })).toBe('−∞');
    expect(f.elo(null)).toBe('—');
    expect(f.elo(NaN)).toBe('—');
  });
});

describe('intervals need a sample', () => {
  test(`below ${f.MIN_INTERVAL_GAMES} games an interval reads "too few games"`, () => {
    expect(f.MIN_INTERVAL_GAMES).toBe(10);
    const two = { elo: 0, eloLo: 0, eloHi: 0, games: 4 };
    expect(f.eloWithInterval(two)).toBe('+0 (too few games)');
    expect(f.eloWithInterval({ elo: 120.2, eloLo: 51, eloHi: 201.4, games: 10 })).toBe('+120 [+51, +201]');
    expect(f.eloWithInterval({ elo: 'inf', eloLo: 30, eloHi: 'inf', games: 12 })).toBe('+∞ [+30, +∞]');
    expect(f.interval(1450.1, 1550.3, 9, (x) => f.num(x, 1))).toBe('too few games');
    expect(f.interval(1450.1, 1550.3, 10, (x) => f.num(x, 1))).toBe('[1450.1, 1550.3]');
    expect(f.interval(1, 2, undefined, String)).toBe('too few games');
  });
  test('rank ranges: one rank, a span, too few games, or unknown', () => {
    expect(f.rankRange(1, 1, 1)).toBe('too few games');
    expect(f.rankRange(1, 1, 40)).toBe('1');
    expect(f.rankRange(1, 3, 40)).toBe('1–3');
    expect(f.rankRange(undefined, 3, 40)).toBe('');
  });
  test('percentages', () => {
    expect(f.pct(0.573)).toBe('57.3%');
    expect(f.pct(1)).toBe('100%');
    expect(f.pct(NaN)).toBe('—');
  });
});

test("the page formats numbers only through format.js (no local toFixed, no second num())", () => {
  const dir = resolve(__dirname, '..', '..', 'web', 'js');
  const envs = resolve(__dirname, '..', '..', 'envs');
  const renderers = readdirSync(envs).flatMap((e) => (existsSync(join(envs, e, 'web')) ? readdirSync(join(envs, e, 'web')).map((n) => join(envs, e, 'web', n)) : []));
  expect(renderers.filter((p) => p.endsWith('renderer.js')).length).toBeGreaterThanOrEqual(5);
  const files = [...readdirSync(dir).map((n) => join(dir, n)), ...readdirSync(join(dir, 'renderers')).map((n) => join(dir, 'renderers', n)), ...renderers].filter((p) => p.endsWith('.js') && !p.endsWith('format.js'));
  for (const p of files) {
    const text = readFileSync(p, 'utf8');
    expect([p, /\.toFixed\(/.test(text)]).toEqual([p, false]);
    expect([p, /export function num\b/.test(text)]).toEqual([p, false]);
  }
});
