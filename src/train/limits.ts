/** Limits of the training configuration that the CLI names in its help, in a file that loads nothing. */

/** Most episodes played in lockstep (`envsPerBatch`). */
export const MAX_ENVS_PER_BATCH = 4096;
