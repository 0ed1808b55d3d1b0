import type { EnvDefinition } from '../src/core/env';
import { codeRepairEnv } from './code-repair';
import { countdownEnv } from './countdown';
import { dealOrNoDealEnv } from './deal-or-no-deal';
import { kernelSpeedupEnv } from './kernel-speedup';
import { werewolfEnv } from './werewolf';

/** Built-in environments, registered by the package entry point. */
export const builtinEnvs: EnvDefinition[] = [countdownEnv, dealOrNoDealEnv, werewolfEnv, codeRepairEnv, kernelSpeedupEnv];
