/** JSON value types: every State, observation, action and event payload in the arena is plain JSON. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * Deep structural equality for JSON values (key order ignored).
 * Used by the conformance kit and by action-membership checks on non-primitive actions.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** A deep copy through JSON, the same round trip a stored or transmitted value takes. */
export function jsonClone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The first path at which `value` is not plain JSON (a function, undefined in an array,
 * NaN/Infinity, a class instance, a cycle), or null when it is plain JSON.
 */
export function nonJsonPath(value: unknown, path = '$', seen = new Set<unknown>()): string | null {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path} (${value})`;
    case 'object': {
      if (seen.has(value)) return `${path} (cycle)`;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const p = nonJsonPath(value[i], `${path}[${i}]`, seen);
          if (p) return p;
        }
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return `${path} (instance of ${proto?.constructor?.name ?? '?'})`;
        for (const [k, v] of Object.entries(value as object)) {
          if (v === undefined) continue;
          const p = nonJsonPath(v, `${path}.${k}`, seen);
          if (p) return p;
        }
      }
      seen.delete(value);
      return null;
    }
    default:
      return `${path} (${typeof value})`;
  }
}
