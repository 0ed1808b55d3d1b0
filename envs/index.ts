/**
 * The built-in envs, one line each: every export of this file is one env's registration object
 * (a `BuiltinEnv` of src/core/builtin-env.ts: definition, baselines, effect handlers), exported
 * by the env folder's public index. The catalog (app/catalog.ts) registers them in this order;
 * test/envs/env-folders.test.ts checks that every folder of envs/ has its line here.
 */
export { countdown } from './countdown';
export { dealOrNoDeal } from './deal-or-no-deal';
export { werewolf } from './werewolf';
export { codeRepair } from './code-repair';
export { kernelSpeedup } from './kernel-speedup';
