/**
 * Private information of a seat: its per-item values (both protocols) and, in the dialogue's
 * selection, its selection until both have chosen. `privateVariants` produces states that differ
 * from a state only there, for the conformance kit's leak check.
 */
import type { Rng } from '../../src/core/rng';
import { compatibleValues, valueVectors, withValues } from './instance';
import { legalIds } from './offers';
import { NO_AGREEMENT, type DondState } from './state';

/** How many variants to produce per (state, seat). */
const VARIANTS = 2;

/**
 * Up to two states in which only `seat`'s private information differs: other valid value
 * vectors for the same pool (total 10, still compatible with the partner's values), and in the
 * dialogue selection a different pending selection.
 */
export function privateVariants(s: DondState, seat: number, rng: Rng): DondState[] {
  if (seat !== 0 && seat !== 1) return [];
  const own = s.inst.values[seat];
  const other = s.inst.values[1 - seat];
  const candidates = valueVectors(s.inst.pool).filter(
    (v) => (v[0] !== own[0] || v[1] !== own[1] || v[2] !== own[2]) && (seat === 0 ? compatibleValues(v, other) : compatibleValues(other, v)),
  );
  const out: DondState[] = [];
  for (const v of rng.shuffle(candidates).slice(0, VARIANTS)) out.push({ ...s, inst: withValues(s.inst, seat, v) });
  if (s.protocol === 'dialogue' && s.phase === 'choose' && s.choices[seat] !== null) {
    const options = [...legalIds(s.inst.pool, false), ...(s.messages.length >= s.cfg.maxTurns ? [NO_AGREEMENT] : [])].filter(
      (c) => c !== s.choices[seat],
    );
    if (options.length) {
      const choices = s.choices.slice();
      choices[seat] = rng.pick(options);
      out.push({ ...s, choices });
    }
  }
  return out;
}
