import { nearestName } from './edit-distance';
import type { JsonValue } from './json';

/** Resolved parameters of one episode: every declared field present (defaults filled in). */
export type Params = Record<string, JsonValue | undefined>;

interface SpecBase<T> {
  /** One line for `arena envs` and the docs. */
  description?: string;
  /** Value used when the field is absent. Without a default the field is optional (undefined). */
  default?: T;
}

/** Declaration of one environment parameter; `arena envs --json` prints these. */
export type ParamSpec =
  | (SpecBase<number> & { type: 'integer' | 'number'; min?: number; max?: number })
  | (SpecBase<boolean> & { type: 'boolean' })
  | (SpecBase<string> & { type: 'string' })
  | (SpecBase<string> & { type: 'enum'; values: readonly string[] })
  | (SpecBase<JsonValue> & {
      type: 'json';
      /** Extra check: return a message (what is wrong) or null. */
      check?: (value: JsonValue) => string | null;
    });

/** A parameter schema: field name -> declaration. */
export type ParamSchema = Record<string, ParamSpec>;

/** A bad parameter: names the env, the field and what is allowed. */
export class ParamError extends Error {
  constructor(
    readonly envId: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${envId}: param "${field}" ${problem}`);
    this.name = 'ParamError';
  }
}

/** JSON of a value, cut to `max` characters (errors never echo megabytes of input). */
export function shortJson(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function allowed(spec: ParamSpec): string {
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const lo = spec.min ?? -Infinity;
      const hi = spec.max ?? Infinity;
      const kind = spec.type === 'integer' ? 'an integer' : 'a number';
      if (lo === -Infinity && hi === Infinity) return kind;
      if (hi === Infinity) return `${kind} >= ${lo}`;
      if (lo === -Infinity) return `${kind} <= ${hi}`;
      return `${kind} in [${lo}, ${hi}]`;
    }
    case 'enum':
      return `one of ${spec.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'json':
      return 'a JSON value';
  }
}

function checkOne(spec: ParamSpec, value: JsonValue): string | null {
  switch (spec.type) {
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be ${allowed(spec)}`;
      if (spec.type === 'integer' && !Number.isInteger(value)) return `must be ${allowed(spec)}`;
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        return `must be ${allowed(spec)}`;
      }
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'string':
      return typeof value === 'string' ? null : 'must be a string';
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? null : `must be ${allowed(spec)}`;
    case 'json':
      return spec.check ? spec.check(value) : null;
  }
}

/**
 * Validates raw params against a schema and fills defaults.
 * Throws ParamError naming the field and the allowed values; unknown fields are errors
 * too (naming the nearest known one when one is near, and listing them all), since a typo silently
 * ignored is a wrong experiment.
 */
export function resolveParams(envId: string, schema: ParamSchema, raw: unknown = {}): Params {
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ParamError(envId, '(params)', 'must be a JSON object');
  }
  const given = raw as Record<string, JsonValue | undefined>;
  // own keys only: "__proto__", "constructor", "toString"... are names like any other, not parameters
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(schema, key)) {
      const known = Object.keys(schema);
      const near = nearestName(key, known);
      throw new ParamError(envId, key, `is not a parameter${near ? `; did you mean ${JSON.stringify(near)}?` : ''} (known: ${known.length ? known.join(', ') : 'none'})`);
    }
  }
  const out: Params = {};
  for (const [key, spec] of Object.entries(schema)) {
    const value = Object.hasOwn(given, key) ? given[key] : undefined;
    if (value === undefined) {
      out[key] = spec.default;
      continue;
    }
    const problem = checkOne(spec, value);
    if (problem) throw new ParamError(envId, key, problem.includes('(got ') ? problem : `${problem} (got ${shortJson(value)})`);
    out[key] = value;
  }
  return out;
}

/** Human-readable one-liner of what a spec allows, for listings. */
export function describeParam(spec: ParamSpec): string {
  return allowed(spec);
}
