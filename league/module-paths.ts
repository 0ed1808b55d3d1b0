import { isAbsolute, relative, resolve, sep } from 'node:path';
import { looksLikePath } from '../src/core/registry';

/**
 * A config's env or agent reference with its module path made absolute against `dir` (the config
 * file's folder), so `"env": "./kuhn-poker.js"` means the file beside the config whatever the
 * working directory. Registered ids, absolute paths and the `#name` / `:{options}` suffixes are
 * kept as they are; without `dir` the reference is returned unchanged (relative to the working
 * directory, as on the command line).
 */
export function resolveModuleRef(ref: string, dir: string | undefined): string {
  if (!dir) return ref;
  const colon = ref.indexOf(':{');
  const name = colon > 0 ? ref.slice(0, colon) : ref;
  const rest = colon > 0 ? ref.slice(colon) : '';
  const hash = name.indexOf('#');
  const path = hash >= 0 ? name.slice(0, hash) : name;
  if (!looksLikePath(path) || isAbsolute(path)) return ref;
  return resolve(dir, path) + (hash >= 0 ? name.slice(hash) : '') + rest;
}

/** The config with {@link resolveModuleRef} applied to its env and its players' agents (the input is not changed). */
export function withResolvedModuleRefs<C extends { env: string; players: { agent: string }[] }>(config: C, dir: string | undefined): C {
  if (!dir) return config;
  return { ...config, env: resolveModuleRef(config.env, dir), players: config.players.map((p) => ({ ...p, agent: resolveModuleRef(p.agent, dir) })) };
}

/**
 * Options with the config's module paths resolved against `configDir` once, up front (and
 * `configDir` dropped), for planned and scheduled leagues: their match plans carry these paths to
 * workers, which run from the same project folder on any machine. A path inside the working
 * directory is therefore written relative to it (`./examples/x.js`), others stay absolute.
 */
export function withConfigPathsResolved<O extends { config: { env: string; players: { agent: string }[] }; configDir?: string }>(o: O): O {
  if (!o.configDir) return o;
  const cwd = process.cwd();
  const toCwd = (ref: string): string => {
    const abs = resolveModuleRef(ref, o.configDir);
    if (abs === ref) return ref;
    const colon = abs.indexOf(':{');
    const head = colon > 0 ? abs.slice(0, colon) : abs;
    const hash = head.indexOf('#');
    const path = hash >= 0 ? head.slice(0, hash) : head;
    const rel = relative(cwd, path);
    if (rel.startsWith('..') || isAbsolute(rel)) return abs;
    return `.${sep}${rel}` + abs.slice(path.length);
  };
  const config = { ...o.config, env: toCwd(o.config.env), players: o.config.players.map((p) => ({ ...p, agent: toCwd(p.agent) })) };
  return { ...o, config, configDir: undefined };
}
