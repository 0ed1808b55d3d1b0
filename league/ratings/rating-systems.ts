/**
 * The registry of rating systems by name: the one list of them. The RatingBook keeps the online
 * ones after every match; leaderboards, the server (`?system=`, `GET /api/rating-systems`) and
 * the page take their names and descriptions from here.
 */
import { bradleyTerrySystem } from './bt-system';
import { eloSystem } from './elo-system';
import { openSkillSystem } from './openskill-system';
import type { RatingSystemInfo, RatingSystemKind } from './rating-system';

/** Registered systems, the leaderboard's default first. */
const SYSTEMS: readonly RatingSystemKind[] = [bradleyTerrySystem, eloSystem, openSkillSystem];

/** A system's kind by name; throws naming the known ones. */
export function ratingSystem(name: string): RatingSystemKind {
  const kind = SYSTEMS.find((s) => s.info.name === name);
  if (!kind) throw new Error(`unknown rating system "${name}" (known: ${ratingSystemNames().join(', ')})`);
  return kind;
}

/** Names of every registered system, the default first. */
export function ratingSystemNames(): string[] {
  return SYSTEMS.map((s) => s.info.name);
}

/** Names of the online systems (updated after every match; they have a stored history). */
export function onlineRatingSystems(): string[] {
  return SYSTEMS.filter((s) => s.online).map((s) => s.info.name);
}

/** The leaderboard's default system (the first registered). */
export function defaultRatingSystem(): string {
  return SYSTEMS[0].info.name;
}

/** The default online system (what a rating history shows when none is named). */
export function defaultOnlineRatingSystem(): string {
  return onlineRatingSystems()[0];
}

/** How each system is described (for the page: it shows these and names no other). */
export function ratingSystemInfos(): RatingSystemInfo[] {
  return SYSTEMS.map((s) => ({ ...s.info, history: { ...s.info.history } }));
}
