/**
 * Where a rollout row came from: the env id, a hash of the env params, the version of the env's
 * prompt and the package version. Every row `arena rollouts` writes carries them
 * (docs/rollouts.md), so a data set says how it was made and rows made under different rules,
 * prompts or code can be told apart.
 */
import { createHash } from 'node:crypto';
import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import { packageVersion } from '../package-root';

/** The provenance fields of a rollout row. */
export interface RolloutProvenance {
  /** Env id, with its version (`countdown-v1`). */
  env: string;
  /** `sha256:` and the first 16 hex digits of the hash of the resolved params as canonical JSON (keys sorted). */
  paramsHash: string;
  /**
   * The env's prompt version: its template's `version` when it declares one; else `sha256:` and
   * 16 hex digits of the template's members (their names and source text); `default` for an env
   * without a template (the generic prompt of src/core/prompt.ts, versioned by the package).
   */
  promptVersion: string;
  /** The selfplay-arena version that wrote the row. */
  packageVersion: string;
}

const sha16 = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;

/** JSON text with object keys sorted at every level, so equal values have one text. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The params hash of a row (see {@link RolloutProvenance.paramsHash}). */
export function paramsHash(params: Params): string {
  return sha16(canonicalJson(params as JsonValue));
}

/** The prompt version of an env (see {@link RolloutProvenance.promptVersion}). */
export function promptVersion(env: Env): string {
  const template = env.prompt;
  if (!template) return 'default';
  if (typeof template.version === 'string' && template.version) return template.version;
  const members = Object.keys(template)
    .sort()
    .map((k) => `${k}=${String((template as Record<string, unknown>)[k])}`);
  return sha16(members.join('\n'));
}

/** The provenance of the rows of one `collectRollouts` run. */
export function provenanceOf(env: Env, params: Params): RolloutProvenance {
  return { env: env.meta.id, paramsHash: paramsHash(params), promptVersion: promptVersion(env), packageVersion: packageVersion() };
}
