import type { PlayerRecord } from '../src/store/store';

/**
 * The learner a snapshot descends from: follows the parent chain (snapshot -> previous
 * snapshot -> ... -> learner). Undefined for baselines, learners and unknown ids.
 */
export function learnerOf(id: string, players: ReadonlyMap<string, PlayerRecord>): string | undefined {
  let p = players.get(id);
  if (!p || p.kind !== 'snapshot') return undefined;
  while (p && p.kind === 'snapshot' && p.parent) p = players.get(p.parent);
  return p?.kind === 'learner' ? p.id : undefined;
}
