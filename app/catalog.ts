import { builtinAgents } from '../agents/index';
import * as envIndex from '../envs/index';
import type { BuiltinEnv, BuiltinServices } from '../src/core/builtin-env';
import { Registry, type EnvHandle } from '../src/core/registry';
import { CODE_RUNS_EFFECT, type CodeRunner, type KernelLab } from '../src/core/sandbox';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { codeRunsHandler } from '../src/sandbox/effects';
import { neuralAgent } from '../src/train/neural-agent';

let sandbox: Sandbox | undefined;

/** The process-wide sandbox, started on first use (its worker processes never hold the process open when idle). */
export function sharedSandbox(): Sandbox {
  return (sandbox ??= createSandbox());
}

/** Stops the process-wide sandbox's workers (commands call it before exiting). */
export async function closeSharedSandbox(): Promise<void> {
  const s = sandbox;
  sandbox = undefined;
  await s?.close();
}

/** A CodeRunner that starts the shared sandbox only when a program first runs. */
const lazyRunner: CodeRunner = { run: (req, signal) => sharedSandbox().code.run(req, signal) };

/** The shared sandbox's kernel lab, started only when a kernel is first measured. */
const lazyLab: KernelLab = {
  open: (kernels, options, signal) => sharedSandbox().lab.open(kernels, options, signal),
  compileAssemblyScript: (source, signal) => sharedSandbox().lab.compileAssemblyScript!(source, signal),
};

/** The built-in envs in envs/index.ts's order (each export of it is one env's registration; the type check holds every export to BuiltinEnv). */
export const builtinEnvs: readonly BuiltinEnv[] = Object.values(envIndex satisfies Record<string, BuiltinEnv>);

/** A registry holding every built-in env, agent kind and effect handler (the sandbox for code). */
export function createRegistry(): Registry {
  const registry = new Registry();
  const services: BuiltinServices = { code: lazyRunner, kernels: lazyLab };
  registry.registerEffect(CODE_RUNS_EFFECT, codeRunsHandler(lazyRunner)); // every env that runs programs asks for it
  for (const agent of builtinAgents) registry.registerAgent(agent);
  for (const builtin of builtinEnvs) {
    registry.registerEnv(builtin.env);
    for (const agent of builtin.agents) registry.registerAgent(agent);
    for (const [kind, handler] of Object.entries(builtin.effects?.(services) ?? {})) registry.registerEffect(kind, handler);
  }
  registry.services = services;
  registry.registerAgent(neuralAgent); // plays checkpoints; it belongs to src/train
  return registry;
}

/** The process-wide registry used by `make` and the CLI. */
export const defaultRegistry = createRegistry();

/** `make(id, params)`: a built-in (or registered) env with params resolved. */
export function make(id: string, params?: unknown): EnvHandle {
  return defaultRegistry.make(id, params);
}
