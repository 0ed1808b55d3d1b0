/** Tournament defaults the CLI shows in its help, in a file that loads nothing (app/cli/program.ts). */

/** With `--redis`: most game jobs queued or playing at once. */
export const DEFAULT_TOURNAMENT_IN_FLIGHT = 16;
