// @ts-check
/**
 * The page's numbers, in one place (tested in test/web/format.test.ts). No DOM, no imports.
 *
 * - `num(x, d)`: at most `d` decimals, trailing zeros of the decimals dropped (never the
 *   integer's own zeros: 1500 stays "1500", 1419.97 to 0 decimals is "1420"); "-0" shows as "0".
 * - `elo(x)`: Elo figures in whole points (ratings "1420", differences "+12" / "−5", "+∞").
 * - Intervals and rank ranges need a sample: below {@link MIN_INTERVAL_GAMES} games they read
 *   "too few games" instead of a degenerate range such as "+0 [+0, +0]" or a rank range "1"
 *   from a single game.
 */

/**
 * Games a player (or a pair) must have played before the page shows a 95% interval, a rank
 * range or a likelihood of superiority: 10 games (5 game pairs of a pentanomial tournament).
 * With fewer, the normal approximation behind them is meaningless (two drawn pairs give a
 * zero-width interval; one game gives a bootstrap rank range of a single rank).
 */
export const MIN_INTERVAL_GAMES = 10;

/** What the page shows in place of an interval below the minimum sample. */
export const TOO_FEW_GAMES = 'too few games';

/**
 * A number with at most `d` decimals; anything that is not a finite number as text.
 * @param {unknown} x
 * @param {number} [d]
 * @returns {string}
 */
export function num(x, d = 2) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  let text = x.toFixed(Math.max(0, Math.min(20, Math.floor(d))));
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

/**
 * An Elo figure in whole points; `signed` for differences ("+12", "−5", "+0"). Infinite values
 * (a perfect score; "inf" / "-inf" as the API writes them) show as ±∞, anything else as "—".
 * @param {unknown} x
 * @param {{ signed?: boolean }} [o]
 * @returns {string}
 */
export function elo(x, o = {}) {
  const v = x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x;
  if (v === Infinity) return o.signed ? '+∞' : '∞';
  if (v === -Infinity) return '−∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return '—';
  const text = num(v, 0);
  if (text.startsWith('-')) return `−${text.slice(1)}`;
  return o.signed ? `+${text}` : text;
}

/**
 * A share as a percentage with `d` decimals ("57.3%"), "—" when not a number.
 * @param {unknown} x
 * @param {number} [d]
 */
export function pct(x, d = 1) {
  return typeof x === 'number' && Number.isFinite(x) ? `${num(100 * x, d)}%` : '—';
}

/**
 * Whether `games` is enough for an interval (see {@link MIN_INTERVAL_GAMES}); unknown counts are not.
 * @param {unknown} games
 */
export function enoughGames(games) {
  return typeof games === 'number' && games >= MIN_INTERVAL_GAMES;
}

/**
 * "[lo, hi]" with `fmt`, or "too few games" below the minimum sample.
 * @param {unknown} lo
 * @param {unknown} hi
 * @param {unknown} games
 * @param {(x: unknown) => string} fmt
 */
export function interval(lo, hi, games, fmt) {
  return enoughGames(games) ? `[${fmt(lo)}, ${fmt(hi)}]` : TOO_FEW_GAMES;
}

/**
 * An Elo difference with its 95% interval ("+120 [+51, +201]"), or the difference and "too few
 * games" below the minimum sample.
 * @param {{ elo: unknown, eloLo: unknown, eloHi: unknown, games: unknown }} e
 */
export function eloWithInterval(e) {
  const signed = (/** @type {unknown} */ x) => elo(x, { signed: true });
  return `${signed(e.elo)} ${enoughGames(e.games) ? interval(e.eloLo, e.eloHi, e.games, signed) : `(${TOO_FEW_GAMES})`}`;
}

/**
 * A rank range ("2", "1–3"), or "too few games" below the minimum sample; "" when unknown.
 * @param {unknown} lo
 * @param {unknown} hi
 * @param {unknown} games
 */
export function rankRange(lo, hi, games) {
  if (typeof lo !== 'number' || typeof hi !== 'number') return '';
  if (!enoughGames(games)) return TOO_FEW_GAMES;
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}
