import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The selfplay-arena checkout or install folder (the one holding its package.json), found by
 * walking up from this file, so paths work both from src/ (tests) and from dist/ (the CLI).
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'selfplay-arena') return (cached = dir);
    dir = dirname(dir);
  }
  throw new Error(`selfplay-arena's package.json not found above ${__dirname}`);
}

let version: string | undefined;

/** The package's version (its package.json "version"): printed by `arena --version`, stamped on rollout rows. */
export function packageVersion(): string {
  if (version) return version;
  const v = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version;
  if (typeof v !== 'string') throw new Error(`selfplay-arena's package.json has no "version"`);
  return (version = v);
}
