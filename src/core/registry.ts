import { importUserModule } from './user-import';
import { resolve } from 'node:path';
import type { Agent, AgentFactory, AgentOptions, AgentServices } from './agent';
import { looksLikePath, toAgentRef, type AgentRef, type AgentRefLike } from './agent-ref';
import type { EffectHandler, EffectHandlers } from './effects';
import type { Env, EnvDefinition } from './env';
import { heartbeat, Phase } from './heartbeat';
import { normalizeEnv } from './normalize-env';
import { ParamError, resolveParams, type Params } from './params';

/** An env bound to resolved params: what `make` returns. */
export interface EnvHandle<S = any, A = any, O = any> {
  env: Env<S, A, O>;
  params: Params;
  /** `env.init(params, seed)`. */
  init(seed: number | string): S;
}

/** Unknown env or agent name; the message lists what is known. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** What a user module may export (CommonJS or ESM): an env, several envs, agents, or all of these. */
export interface ArenaModule {
  env?: EnvDefinition;
  envs?: EnvDefinition[];
  agents?: AgentFactory[];
  default?: unknown;
  meta?: unknown;
}

export { looksLikePath };

/**
 * Envs and agent kinds by name. Built-ins are registered by the package entry point;
 * users add their own by module path (`arena check ./my-env.js`) without touching the project.
 */
export class Registry {
  private readonly envs = new Map<string, Env>();
  private readonly agents = new Map<string, AgentFactory>();
  private readonly effectHandlers: Record<string, EffectHandler> = {};
  /** What agents created by this registry are lent (see AgentServices); the catalog fills it. */
  services: AgentServices = {};

  /** Registers the handler of an effect kind (a re-registration replaces). */
  registerEffect(kind: string, handler: EffectHandler): void {
    this.effectHandlers[kind] = handler;
  }

  /** The effect handlers, for `runMatch({ effects })`. */
  effects(): EffectHandlers {
    return this.effectHandlers;
  }

  /** Normalizes and registers an env definition; returns the normalized env. A re-registration replaces. */
  registerEnv(def: EnvDefinition): Env {
    const env = normalizeEnv(def);
    this.envs.set(env.meta.id, env);
    return env;
  }

  /** Registers an agent kind. A name may be registered once per env set; later wins. */
  registerAgent(factory: AgentFactory): void {
    if (!factory || typeof factory.name !== 'string' || typeof factory.create !== 'function') {
      throw new RegistryError('agent factory needs a "name" and a "create" function');
    }
    const key = this.agentKey(factory.name, factory.envs);
    this.agents.set(key, factory);
  }

  private agentKey(name: string, envs?: readonly string[]): string {
    return envs && envs.length ? `${name}@${[...envs].sort().join(',')}` : name;
  }

  envIds(): string[] {
    return [...this.envs.keys()].sort();
  }

  allEnvs(): Env[] {
    return this.envIds().map((id) => this.envs.get(id)!);
  }

  /** The env with this id; an id without version suffix means its latest version. */
  env(id: string): Env {
    const exact = this.envs.get(id);
    if (exact) return exact;
    const versions = this.envIds().filter((k) => k.replace(/-v\d+$/, '') === id);
    if (versions.length) {
      versions.sort((a, b) => Number(b.replace(/.*-v/, '')) - Number(a.replace(/.*-v/, '')));
      return this.envs.get(versions[0])!;
    }
    throw new RegistryError(`unknown env "${id}" (known: ${this.envIds().join(', ') || 'none'}; or give a path to a JS module)`);
  }

  /** `make(id, params)`: the env with params resolved (ParamError names a bad field). */
  make(id: string, params?: unknown): EnvHandle {
    const env = this.env(id);
    const resolved = env.resolveParams(params);
    return { env, params: resolved, init: (seed) => env.init(resolved, seed) };
  }

  /** Agent kinds that can play `envId` (optionally a role). */
  agentsFor(envId: string, role?: string): AgentFactory[] {
    return [...this.agents.values()].filter(
      (f) => (!f.envs || f.envs.includes(envId)) && (!role || !f.roles || f.roles.includes(role)),
    );
  }

  /** The agent kind `name` for `envId`; env-specific kinds win over generic ones. */
  agentFactory(name: string, envId: string): AgentFactory {
    const candidates = [...this.agents.values()].filter((f) => f.name === name && (!f.envs || f.envs.includes(envId)));
    candidates.sort((a, b) => (a.envs ? 0 : 1) - (b.envs ? 0 : 1));
    if (!candidates.length) {
      const known = this.agentsFor(envId).map((f) => f.name);
      throw new RegistryError(`unknown agent "${name}" for ${envId} (known: ${[...new Set(known)].join(', ') || 'none'})`);
    }
    return candidates[0];
  }

  /**
   * Creates an agent from a reference (src/core/agent-ref.ts: a name, `name:{json options}`, or
   * a module path exporting agents), loading its module first. Throws AgentRefError for a
   * malformed reference and RegistryError naming the agent, module or option otherwise.
   */
  async createAgent(ref: AgentRefLike, options: AgentOptions): Promise<{ agent: Agent; factory: AgentFactory }> {
    const r = toAgentRef(ref);
    if (r.kind === 'module') await this.loadModuleOnce(r.path!);
    return this.createLoadedAgent(r, options);
  }

  /**
   * {@link createAgent} without loading: for references whose module (if any) is loaded already
   * (a RegistryError otherwise), so it can run in synchronous code.
   */
  createLoadedAgent(ref: AgentRefLike, options: AgentOptions): { agent: Agent; factory: AgentFactory } {
    const r = toAgentRef(ref);
    const factory = this.factoryOf(r, options.env.meta.id);
    const given = r.options ?? options.options;
    if (factory.options) {
      if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) throw new RegistryError(`agent "${factory.name}": options must be a JSON object`);
      try {
        resolveParams(`agent "${factory.name}"`, factory.options, given ?? {});
      } catch (e) {
        if (e instanceof ParamError) throw new RegistryError(`${e.envId}: option "${e.field}" ${e.problem.replace(/^is not a parameter/, 'is not an option')}`);
        throw e;
      }
    }
    return { agent: factory.create({ ...options, options: given as Record<string, unknown> | undefined, services: options.services ?? this.services }), factory };
  }

  /** The agent kind a reference resolves to for `envId` (its module must be loaded: see {@link createAgent}). */
  factoryOf(ref: AgentRef, envId: string): AgentFactory {
    if (ref.kind !== 'module') return this.agentFactory(ref.name, envId);
    const loaded = this.loadedModules.get(resolve(ref.path!));
    if (!loaded) throw new RegistryError(`module ${ref.path} is not loaded yet`);
    if (!loaded.agents.length) throw new RegistryError(`module ${ref.path} exports no agents`);
    if (ref.name && !loaded.agents.includes(ref.name)) throw new RegistryError(`module ${ref.path} has no agent "${ref.name}" (has: ${loaded.agents.join(', ')})`);
    return this.agentFactory(ref.name || loaded.agents[0], envId);
  }

  /** Resolves an env reference: a registered id, or a path to a JS module exporting an env. */
  async resolveEnv(ref: string): Promise<Env> {
    if (looksLikePath(ref) && !this.envs.has(ref)) {
      const loaded = await this.loadModuleOnce(ref);
      if (!loaded.envs.length) throw new RegistryError(`module ${ref} exports no env (export "env", "envs" or a default env)`);
      return this.env(loaded.envs[0]);
    }
    return this.env(ref);
  }

  private readonly loaded = new Map<string, Promise<{ envs: string[]; agents: string[] }>>();
  /** What each loaded module added, by absolute path (for synchronous lookups once loaded). */
  private readonly loadedModules = new Map<string, { envs: string[]; agents: string[] }>();

  /** {@link loadModule}, once per resolved path (agents are created per match; the module is not reloaded). */
  loadModuleOnce(path: string): Promise<{ envs: string[]; agents: string[] }> {
    const abs = resolve(path);
    let p = this.loaded.get(abs);
    if (!p) {
      p = this.loadModule(abs);
      this.loaded.set(abs, p);
      p.then(
        (added) => this.loadedModules.set(abs, added),
        () => this.loaded.delete(abs),
      );
    }
    return p;
  }

  /** Loads a user module (CommonJS or ESM) and registers what it exports; returns the ids/names added. */
  async loadModule(path: string): Promise<{ envs: string[]; agents: string[] }> {
    const abs = resolve(path);
    let mod: ArenaModule;
    const hb = heartbeat();
    hb?.context({ module: path });
    hb?.enter(Phase.Load, 0);
    try {
      try {
        // CommonJS, and ESM through require(esm) on Node 20.19+ (also works under jest).
        mod = require(abs) as ArenaModule;
      } catch (e) {
        // ERR_MODULE_NOT_FOUND comes only from an ES module's imports, which require(esm) resolves
        // without the loader hooks (the CLI's `selfplay-arena` resolution): import() applies them.
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE' && code !== 'ERR_MODULE_NOT_FOUND') throw e;
        mod = (await importUserModule(abs)) as ArenaModule;
      }
    } catch (e) {
      // Node's "Require stack:" lists this process's own files: the first line says what is wrong
      throw new RegistryError(`cannot load module ${path}: ${(e as Error).message.split(/\r?\n\s*Require stack:/)[0].trim()}`);
    } finally {
      hb?.leave();
    }
    const root = (mod.default && typeof mod.default === 'object' ? mod.default : mod) as ArenaModule;
    const defs: EnvDefinition[] = [];
    if (root.meta) defs.push(root as unknown as EnvDefinition);
    if (root.env) defs.push(root.env);
    if (Array.isArray(root.envs)) defs.push(...root.envs);
    const envs = defs.map((d) => this.registerEnv(d).meta.id);
    const agents: string[] = [];
    for (const f of root.agents ?? []) {
      this.registerAgent(f);
      agents.push(f.name);
    }
    return { envs, agents };
  }
}
