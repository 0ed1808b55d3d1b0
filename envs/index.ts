import type { EnvDefinition } from '../src/core/env';

/** Built-in environments, registered by the package entry point. */
export const builtinEnvs: EnvDefinition[] = [];
