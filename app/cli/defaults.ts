/** Defaults of the `arena` command line shared by several commands, in a file that loads nothing. */

/** The SQLite database of league, tournament and serve commands when `--db` is not given. */
export const DEFAULT_DB = 'arena.db';
