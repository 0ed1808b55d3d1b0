/**
 * How the CLI classifies a thrown error: the user's input (one line, exit 2), a failure it
 * reports (one line, exit 1) or a bug (stack trace). Required by app/cli/main.ts only when an
 * error reaches it, so the error classes' modules (the store, Redis, the trainer's config) load
 * only then, never at startup.
 */
import { ParamError } from '../../src/core/params';
import { RegistryError } from '../../src/core/registry';
import { AgentRefError } from '../../src/core/agent-ref';
import { EnvDefinitionError } from '../../src/core/normalize-env';
import { LeagueConfigError } from '../../league/config';
import { LeagueLockedError } from '../../league/league-lock';
import { StoreConflictError, StoreError } from '../../src/store/store';
import { TournamentConfigError } from '../../league/tournament/config';
import { SwissPairingError } from '../../league/tournament/swiss';
import { FaultPolicyError } from '../../src/match/fault-policy';
import { MatchFailureError } from '../../src/match/match-failure';
import { CheckpointError } from '../../src/train/checkpoint';
import { PolicyLayoutError } from '../../src/train/policy-model';
import { RunStateError } from '../../src/train/run-state';
import { ConfigError } from '../../src/train/config';
import { RedisUnreachableError, RedisUrlError } from '../../src/scale/redis-connection';
import { BlobError } from '../../src/scale/blob-store';
import { FailureError, UsageError } from './options';

/** Errors that are the user's input, printed as one line (exit 2) instead of a stack trace. */
export function isUserError(e: unknown): e is Error {
  return (
    e instanceof UsageError ||
    e instanceof LeagueConfigError ||
    e instanceof TournamentConfigError ||
    e instanceof SwissPairingError ||
    e instanceof StoreConflictError ||
    e instanceof ParamError ||
    e instanceof RegistryError ||
    e instanceof AgentRefError ||
    e instanceof EnvDefinitionError ||
    e instanceof CheckpointError ||
    e instanceof PolicyLayoutError ||
    e instanceof RunStateError ||
    e instanceof StoreError ||
    e instanceof FaultPolicyError ||
    e instanceof ConfigError ||
    e instanceof LeagueLockedError ||
    e instanceof RedisUrlError ||
    e instanceof RedisUnreachableError ||
    e instanceof BlobError
  );
}

/** Failures the command reports as one line with exit code 1 (no stack trace). */
export function isReportedFailure(e: unknown): e is Error {
  return e instanceof FailureError || e instanceof MatchFailureError;
}
