/**
 * Who may see an event: everyone, one seat, one team, or only omniscient viewers
 * (referees, recorders, finished-match replays).
 */
export type Visibility = 'public' | 'omniscient' | { seat: number } | { team: string };

/** Who is looking: a seat index, the public spectator view, or the omniscient view. */
export type Viewer = number | 'public' | 'omniscient';

/** Seat -> team lookup (teams come from the env's `seats(state)`). */
export type TeamOf = (seat: number) => string | undefined;

/** True when `viewer` may see something with visibility `vis`. */
export function canSee(vis: Visibility, viewer: Viewer, teamOf: TeamOf): boolean {
  if (viewer === 'omniscient' || vis === 'public') return true;
  if (vis === 'omniscient' || viewer === 'public') return false;
  if ('seat' in vis) return vis.seat === viewer;
  return teamOf(viewer) === vis.team;
}

/** Parses a viewer written as text ("public", "omniscient", "seat:2" or "2"); null when malformed. */
export function parseViewer(text: string): Viewer | null {
  if (text === 'public' || text === 'omniscient') return text;
  const m = /^(?:seat:)?(\d{1,4})$/.exec(text);
  return m ? Number(m[1]) : null;
}
