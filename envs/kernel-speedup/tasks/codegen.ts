/**
 * Helpers the task templates use to build kernel source text and to read schedules.
 * They run in the host (TypeScript), never inside a kernel.
 */
import type { Knob, Schedule } from './task';

/** `count` copies of `line(t)` for t = 0..count-1, joined by `sep` (a newline by default). */
export function unrolled(count: number, line: (t: number) => string, sep = '\n'): string {
  const parts: string[] = [];
  for (let t = 0; t < count; t++) parts.push(line(t));
  return parts.join(sep);
}

/** `a0 + a1 + …` over `count` names built by `name(t)`, bracketed pairwise; "0" when count is 0. */
export function sumOf(count: number, name: (t: number) => string): string {
  if (count === 0) return '0';
  const terms = Array.from({ length: count }, (_, t) => name(t));
  while (terms.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < terms.length; i += 2) next.push(i + 1 < terms.length ? `(${terms[i]} + ${terms[i + 1]})` : terms[i]);
    terms.splice(0, terms.length, ...next);
  }
  return terms[0];
}

/**
 * Checks that `schedule` names exactly one listed option for every knob and nothing else;
 * throws an Error naming the offending knob otherwise.
 */
export function checkSchedule(knobs: readonly Knob[], schedule: Schedule): void {
  for (const knob of knobs) {
    const value = schedule[knob.name];
    if (!knob.options.includes(value)) {
      throw new Error(`schedule knob "${knob.name}" = ${String(value)} is not one of ${knob.options.join(', ')}`);
    }
  }
  for (const name of Object.keys(schedule)) {
    if (!knobs.some((k) => k.name === name)) throw new Error(`schedule has unknown knob "${name}"`);
  }
}

/** A numeric knob's value (the schedule must have been checked). */
export function numberKnob(schedule: Schedule, name: string): number {
  const value = schedule[name];
  if (typeof value !== 'number') throw new Error(`schedule knob "${name}" must be a number, got ${String(value)}`);
  return value;
}

/** A string knob's value (the schedule must have been checked). */
export function stringKnob(schedule: Schedule, name: string): string {
  const value = schedule[name];
  if (typeof value !== 'string') throw new Error(`schedule knob "${name}" must be a string, got ${String(value)}`);
  return value;
}

/**
 * Source of a loop that advances the already-declared index `v` from its current value to `end`:
 * the `(end − v) mod u` leftover iterations run first, one element each (`single`), then whole
 * groups of `u` (`group`, which sees `v` at the group's first element). Peeling the leftover up
 * front keeps the hot loop last: a remainder loop after the hot loop makes V8 (Node 20) produce
 * much slower code for it, sometimes 3× slower, depending on how the function was warmed up.
 */
export function peeledLoop(v: string, end: string, u: number, single: string, group: string): string {
  if (u === 1) return `for (; ${v} < ${end}; ${v}++) { ${single} }`;
  return `{
      const ${v}Head = ${v} + ((${end} - ${v}) % ${u});
      for (; ${v} < ${v}Head; ${v}++) { ${single} }
      for (; ${v} < ${end}; ${v} += ${u}) {
        ${group}
      }
    }`;
}
