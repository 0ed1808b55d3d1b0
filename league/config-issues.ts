/**
 * One-line errors of JSON configs (league, tournament) validated with zod: each issue names its
 * field by path; an unknown key (every object of a config schema is strict) names the key and
 * the nearest valid key at that place (`unknown key "bogus" in league config; did you mean
 * "budget"?`), or lists the valid keys when none is near.
 */
import type { z } from 'zod';
import { nearestName } from '../src/core/edit-distance';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const child = (v: unknown, k: PropertyKey): unknown => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined);

/** The schema itself, through wrappers (optional, default, pipe...) and the union option that `value` selects. */
function unwrap(schema: z.ZodType, value: unknown): z.ZodType {
  let s = schema;
  for (let guard = 0; guard < 32; guard++) {
    const def = defOf(s);
    if ('innerType' in def) s = def.innerType as z.ZodType;
    else if (def.type === 'pipe') s = def.in as z.ZodType;
    else if (def.type === 'union') {
      const options = def.options as z.ZodType[];
      const disc = def.discriminator as string | undefined;
      const tag = disc === undefined ? undefined : child(value, disc);
      const pick = options.find((o) => {
        const d = defOf(unwrap(o, value));
        if (d.type !== 'object') return false;
        if (disc === undefined) return true;
        const lit = defOf((d.shape as Record<string, z.ZodType>)[disc]);
        return Array.isArray(lit.values) && lit.values.includes(tag);
      });
      if (!pick) return s;
      s = pick;
    } else return s;
  }
  return s;
}

/** The keys an object of `schema` may have at `path` of `input` (null when the path does not lead to an object schema). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[], input: unknown): string[] | null {
  let s = schema;
  let v = input;
  for (const step of path) {
    const def = defOf(unwrap(s, v));
    if (def.type === 'object') s = (def.shape as Record<string, z.ZodType>)[String(step)];
    else if (def.type === 'array') s = def.element as z.ZodType;
    else if (def.type === 'record') s = def.valueType as z.ZodType;
    else return null;
    if (!s) return null;
    v = child(v, step);
  }
  const def = defOf(unwrap(s, v));
  return def.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : null;
}

/**
 * The message of a failed parse of `input` with `schema`: `<what>: <path>: <problem>` per issue,
 * and for each unknown key `unknown key "K" in <what>[ at <path>]; did you mean "N"?` — joined
 * with "; ". `what` names the config ("league config").
 */
export function configIssues(what: string, schema: z.ZodType, input: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const lines: string[] = [];
  const other: string[] = [];
  // unknown keys of outer objects first (zod reports nested issues before their parent's); other issues in zod's order
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys').sort((a, b) => a.path.length - b.path.length);
  for (const i of [...unknown, ...issues.filter((x) => x.code !== 'unrecognized_keys')]) {
    const at = i.path.length ? i.path.join('.') : '';
    if (i.code === 'unrecognized_keys') {
      const valid = keysAt(schema, i.path, input) ?? [];
      for (const key of i.keys) {
        const near = nearestName(key, valid, Infinity);
        const where = `${what}${at ? ` at ${at}` : ''}`;
        lines.push(`unknown key ${JSON.stringify(key)} in ${where}; ${near ? `did you mean ${JSON.stringify(near)}?` : `valid keys: ${valid.join(', ')}`}`);
      }
    } else other.push(`${at || '(root)'}: ${i.message}`);
  }
  if (other.length) lines.push(`${what}: ${other.join('; ')}`);
  return lines.join('; ');
}
