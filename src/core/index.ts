/**
 * The light entry point `selfplay-arena/core` (`require('selfplay-arena/core')`): the env and
 * agent contracts and their types, `defineEnv` / `defineAgent`, `Rng`, the registry, prompts and
 * the conformance kit (`checkEnv`, golden playthroughs, playouts, exploit fixtures' types).
 * Everything here lives in src/core, which imports nothing of the project outside itself and no
 * heavy package: loading it loads none of socket.io, SQLite, tfjs, BullMQ, Redis, isolated-vm or
 * the OpenAI client (test/core/core-entry.test.ts), and its types compile without
 * `skipLibCheck`. The full entry `selfplay-arena` (app/index.ts) re-exports all of it.
 */
export * from './env';
export * from './agent';
export * from './events';
export * from './json';
export * from './params';
export * from './rng';
export * from './visibility';
export * from './registry';
export * from './prompt';
export { neutralizeControlTokens, quoteSpeech } from './quote-text';
export { defineEnv, defineAgent } from './define';
export { normalizeEnv, containsAction, EnvDefinitionError } from './normalize-env';
export { checkEnv, formatReport, CHECK_NAMES, type CheckOptions, type CheckReport, type CheckResult } from './conformance/check-env';
export * from './conformance/golden';
export { playout, replay, randomAction, type Trace } from './conformance/playout';
export * from './conformance/exploits';
export { defaultForfeitReturns, keepReturnsSoFar } from './forfeit';
