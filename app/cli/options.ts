import { readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { Params } from '../../src/core/params';
import type { Registry } from '../../src/core/registry';
import { perSeat, SeatAgentError, seatAgents } from '../../src/match/seat-agents';

/** A usage error: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure that is not the user's input but needs no stack trace either (printed as one line, exit 1). */
export class FailureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FailureError';
  }
}

/**
 * Parses a JSON option: inline JSON, or the path of a JSON file. A folder, a missing file or an
 * unreadable one is named as such (not reported as bad JSON); long input is never echoed whole.
 */
export function parseJsonOption(option: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  let source = text;
  let file: string | null = null;
  if (!/^\s*([[{"\d-]|(true|false|null)\s*$)/.test(text)) {
    let st: Stats | undefined;
    try {
      st = statSync(text);
    } catch {
      throw new UsageError(`${option}: "${oneLine(text, 80)}" is neither JSON nor an existing file`);
    }
    if (st.isDirectory()) throw new UsageError(`${option}: ${text} is a folder; give JSON or a JSON file`);
    try {
      source = readFileSync(text, 'utf8');
    } catch (e) {
      throw new UsageError(`${option}: cannot read ${text} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    file = text;
  }
  try {
    return JSON.parse(source);
  } catch (e) {
    throw new UsageError(`${option}: ${file ? `${file} is not` : 'not'} valid JSON (${oneLine((e as Error).message, 160)})`);
  }
}

/** Parses a non-negative integer option (a safe integer: at most 2^53 - 1); names the option on error. */
export function parseIntOption(option: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${option}: expected a non-negative integer up to 2^53-1, got "${oneLine(text, 40)}"`);
  return n;
}

/**
 * Parses `--deadline`: milliseconds (a positive integer), or "none" for no deadline at all
 * (Infinity: a promise that never settles then waits forever, and the CLI reports it by name
 * when nothing else is left to run). Absent: the runner's defaults.
 */
export function parseDeadlineOption(text: string): number {
  if (text.trim().toLowerCase() === 'none') return Infinity;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--deadline: expected milliseconds (a positive integer) or "none", got "${oneLine(text, 40)}"`);
  return n;
}

/** Writes `text` to the `--out` file, or to stdout without one; a file that cannot be written is a usage error naming it. */
export function writeOutput(out: string | undefined, text: string): void {
  if (!out) {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(out, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `the folder ${dirname(out)} does not exist` : code === 'EISDIR' ? 'it is a folder' : (code ?? (e as Error).message);
    throw new UsageError(`--out: cannot write ${out} (${why})`);
  }
}

/** Reads a file named by an option; a missing or unreadable file is a usage error naming it. */
export function readOptionFile(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${option}: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder' : (code ?? (e as Error).message)})`);
  }
}

/** The `--port` listen errors as usage errors (port in use, not allowed); others unchanged. */
export function listenError(e: unknown, port: number): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new UsageError(`--port: ${port} is already in use; pick another with --port`);
  if (code === 'EACCES') return new UsageError(`--port: not allowed to listen on ${port}`);
  return e;
}

/** Splits "a,b:{"x":1,"y":2},c" at top-level commas (commas inside braces belong to options). */
export function splitAgentList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '{' || ch === '[') depth++;
    if (ch === '}' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Env + resolved params from CLI arguments. ParamErrors become usage errors. */
export async function envAndParams(registry: Registry, ref: string, paramsText?: string): Promise<{ env: Env; params: Params }> {
  const env = await registry.resolveEnv(ref);
  const raw = parseJsonOption('--params', paramsText);
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    throw new UsageError(`--params: expected a JSON object of params (e.g. {"rounds": 5}), got ${oneLine(JSON.stringify(raw), 40)}`);
  }
  return { env, params: env.resolveParams(raw) };
}

/** One agent per seat from `--agents` (a single name fills every seat), each seeded `deriveSeed(seed, 'agent', seat)`. */
export async function agentsForSeats(registry: Registry, env: Env, params: Params, specs: string[], seats: number, seed: number): Promise<Agent[]> {
  const refs = perSeat(specs, seats);
  if (!refs) throw new UsageError(`--agents: ${env.meta.id} has ${seats} seats; give 1 agent (for all seats) or ${seats}, not ${specs.length}`);
  try {
    return await seatAgents({ registry, env, params, seats: refs, seed });
  } catch (e) {
    throw e instanceof SeatAgentError ? e.cause : e;
  }
}

/** Parses a finite number option (negative and fractional allowed); names the option on error. */
export function parseNumberOption(option: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${option}: expected a number, got "${text}"`);
  return n;
}

/**
 * A message as one line of reasonable length: newlines collapsed, the middle of an overlong
 * message cut (errors never echo megabytes of input).
 */
export function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  if (flat.length <= max) return flat;
  const keep = Math.floor((max - 30) / 2);
  return `${flat.slice(0, keep)} …(${flat.length - 2 * keep} characters cut)… ${flat.slice(-keep)}`;
}
