import type { TournamentReport } from '../../league/tournament/report';
import type { EloEstimate } from '../../league/tournament/statistics';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const signed = (x: number) => (x === Infinity ? '+inf' : x === -Infinity ? '-inf' : Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(0)}` : '—');

/**
 * Games an interval needs before it is shown: below it an interval is degenerate ("+0 [+0, +0]"
 * from two drawn pairs) and says nothing. The page uses the same rule (web/js/format.js,
 * MIN_INTERVAL_GAMES; docs/numbers.md).
 */
export const MIN_INTERVAL_GAMES = 10;

/** "+120 [+51, +201]" — an Elo estimate with its 95% interval; "+0 (too few games)" below {@link MIN_INTERVAL_GAMES} games. */
export function formatElo(e: EloEstimate): string {
  if (!(e.games >= MIN_INTERVAL_GAMES)) return `${signed(e.elo)} (too few games)`;
  return `${signed(e.elo)} [${signed(e.eloLo)}, ${signed(e.eloHi)}]`;
}

/** "W-D-L 3-1-0". */
const wdl = (x: { wins: number; draws: number; losses: number }) => `${x.wins}-${x.draws}-${x.losses}`;

/** The text form of a tournament report: header, standings, crosstable, pairs, Swiss rounds, SPRT. */
export function formatTournament(r: TournamentReport): string {
  const out: string[] = [];
  const state = r.finished ? 'finished' : 'in progress';
  out.push(`tournament ${r.name} (${r.format}, ${r.env}): ${r.games}${r.format === 'sprt' ? '' : `/${r.total}`} games, ${state}`);
  out.push('');
  out.push('standings');
  const swiss = r.format === 'swiss';
  const width = Math.max(6, ...r.players.map((p) => p.id.length)) + 2;
  out.push(`  rank  ${'player'.padEnd(width)}games  W-D-L        points  score   Elo [95% CI]         LOS${swiss ? '     Buchholz  S-B' : '     S-B'}`);
  for (const s of r.standings) {
    const pts = `${s.points}${s.byes ? ` (${s.byes} bye)` : ''}`;
    out.push(
      `  ${String(s.rank).padEnd(6)}${s.player.padEnd(width)}${String(s.games).padEnd(7)}${wdl(s).padEnd(13)}${pts.padEnd(8)}${pct(s.score).padEnd(8)}${formatElo(s.elo).padEnd(21)}${pct(s.elo.los).padEnd(8)}` +
        (swiss ? `${String(s.buchholz).padEnd(10)}${s.sonnebornBerger.toFixed(2)}` : `${s.sonnebornBerger.toFixed(2)}`),
    );
  }
  out.push('');
  out.push("crosstable (row player's points / games against the column player)");
  const ids = r.players.map((p) => p.id);
  const col = Math.max(9, ...ids.map((x) => x.length + 2));
  out.push(`  ${''.padEnd(width)}${ids.map((x) => x.padEnd(col)).join('')}`);
  for (const a of ids) {
    const cells = ids.map((b) => {
      if (a === b) return '·'.padEnd(col);
      const c = r.crosstable.cells.find((x) => x.player === a && x.opponent === b);
      return (c ? `${c.points}/${c.games}` : '').padEnd(col);
    });
    out.push(`  ${a.padEnd(width)}${cells.join('')}`);
  }
  out.push('');
  out.push('pairs (row player\'s W-D-L, per side, pentanomial LL..WW, Elo)');
  for (const c of r.crosstable.cells) {
    if (ids.indexOf(c.player) > ids.indexOf(c.opponent)) continue;
    const sides = Object.entries(c.bySide)
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([side, w]) => `${side} ${wdl(w)}`)
      .join(', ');
    out.push(`  ${c.player} vs ${c.opponent}: ${c.games} games, ${wdl(c)}, score ${pct(c.score)}; ${sides}${c.pentanomial ? `; penta [${c.pentanomial.join(',')}]` : ''}; Elo ${formatElo(c.elo)}, LOS ${pct(c.elo.los)}`);
  }
  if (r.rounds.length) {
    out.push('');
    out.push('rounds');
    for (const rd of r.rounds) out.push(`  ${rd.round + 1}: ${rd.pairings.map(([a, b]) => `${a}-${b}`).join(', ')}${rd.bye ? `; bye ${rd.bye}` : ''}`);
  }
  if (r.sprt) out.push('', formatSprt(r));
  return out.join('\n');
}

/** One SPRT status line: games, W-D-L, pentanomial counts, LLR with bounds, Elo, decision. */
export function formatSprt(r: TournamentReport): string {
  const s = r.sprt!;
  const st = r.standings.find((x) => x.player === r.players[0].id)!;
  const counts = s.counts.length === 5 ? `penta [${s.counts.join(',')}]` : `tri [${s.counts.join(',')}]`;
  const decision = s.decision ? `${s.decision} accepted` : r.finished ? 'undecided (game limit)' : 'running';
  return (
    `sprt ${r.players[0].id} (${r.players[0].agent}) vs ${r.players[1].id} (${r.players[1].agent}) [${s.elo0}, ${s.elo1}] (${s.model}, α ${s.alpha}, β ${s.beta}): ${r.games} games, W-D-L ${wdl(st)}, ${counts}, ` +
    `LLR ${s.llr.toFixed(2)} [${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}], Elo ${formatElo(s.elo)}, LOS ${pct(s.elo.los)}: ${decision}`
  );
}
