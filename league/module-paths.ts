import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseAgentRef } from '../src/core/agent-ref';

/**
 * A reference (an env or an agent: src/core/agent-ref.ts) with its module path replaced by
 * `f(path)`, the rest of the text (`#name`, `:{options}`) kept as written; registered names are
 * returned unchanged.
 */
function mapPath(ref: string, f: (path: string) => string): string {
  const r = parseAgentRef(ref);
  if (r.kind !== 'module' || !r.path) return ref;
  const text = ref.trim();
  return f(r.path) + text.slice(r.path.length);
}

/**
 * A config's env or agent reference with its module path made absolute against `dir` (the config
 * file's folder), so `"env": "./kuhn-poker.js"` means the file beside the config whatever the
 * working directory. Registered ids, absolute paths and the `#name` / `:{options}` suffixes are
 * kept as they are; without `dir` the reference is returned unchanged (relative to the working
 * directory, as on the command line).
 */
export function resolveModuleRef(ref: string, dir: string | undefined): string {
  if (!dir) return ref;
  return mapPath(ref, (path) => (isAbsolute(path) ? path : resolve(dir, path)));
}

/** The config with {@link resolveModuleRef} applied to its env and its players' agents (the input is not changed). */
export function withResolvedModuleRefs<C extends { env: string; players: { agent: string }[] }>(config: C, dir: string | undefined): C {
  if (!dir) return config;
  return { ...config, env: resolveModuleRef(config.env, dir), players: config.players.map((p) => ({ ...p, agent: resolveModuleRef(p.agent, dir) })) };
}

/**
 * Options with the config's module paths resolved against `configDir` (and `configDir`
 * dropped), as match plans carry them to workers, which run from the same project folder on any
 * machine: a relative path inside the working directory is written relative to it
 * (`./examples/x.js`), others absolute; absolute paths are kept.
 */
export function withConfigPathsResolved<O extends { config: { env: string; players: { agent: string }[] }; configDir?: string }>(o: O): O {
  if (!o.configDir) return o;
  const dir = o.configDir;
  const cwd = process.cwd();
  const toCwd = (ref: string): string =>
    mapPath(ref, (path) => {
      if (isAbsolute(path)) return path; // written absolute: kept so
      const abs = resolve(dir, path);
      const rel = relative(cwd, abs);
      return rel.startsWith('..') || isAbsolute(rel) ? abs : `.${sep}${rel}`;
    });
  const config = { ...o.config, env: toCwd(o.config.env), players: o.config.players.map((p) => ({ ...p, agent: toCwd(p.agent) })) };
  return { ...o, config, configDir: undefined };
}
