/**
 * Agent references: the one grammar by which a command line, a config, a plan or a client
 * names the agent of a seat, parsed and checked here and nowhere else.
 *
 * ```
 * random                          a registered agent kind
 * greedy:{"epsilon":0.1}          ... with JSON options
 * ./bots.js                       a module file: its first exported agent
 * ./bots.js#sleepy:{"ms":5}       ... a named export, with options
 * llm:{"model":"..."}             a language model over an OpenAI-compatible API
 * neural:{"checkpoint":"x.json"}  a trained policy network from a checkpoint file
 * remote, remote:{"name":"bot"}   a bot over the /play socket (served by this process)
 * human                           a person in the web page (served by this process)
 * ```
 *
 * A reference's {@link AgentRef.kind} says what it asks of the process that builds it (a file
 * loaded and run, an outside service, a checkpoint read, a served seat), which is what an
 * operator's allow-list decides on.
 */
import type { JsonValue } from './json';

/** What an agent reference names (see the module comment). */
export type AgentRefKind = 'registered' | 'module' | 'llm' | 'neural' | 'remote' | 'human';

/** A parsed agent reference. Build one with {@link parseAgentRef}; write it back with {@link formatAgentRef}. */
export interface AgentRef {
  readonly kind: AgentRefKind;
  /** The agent kind's name; for a module, the export asked for after `#` ('' = the module's first agent). */
  readonly name: string;
  /** The module file (kind `module` only), as written. */
  readonly path?: string;
  /** JSON options after `:` (absent when none were given). */
  readonly options?: { readonly [key: string]: JsonValue };
}

/** A malformed agent reference; the message names the reference and what is wrong. */
export class AgentRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentRefError';
  }
}

/** Registered kinds that are more than a name (they reach outside the process or serve a seat). */
const SPECIAL: Readonly<Record<string, AgentRefKind>> = { llm: 'llm', neural: 'neural', remote: 'remote', human: 'human' };

/** Whether a reference (the part before options) names a module file (`./x.js`, `/abs/x.mjs`, `x.cjs`) rather than a registered name. */
export function looksLikePath(ref: string): boolean {
  return ref.startsWith('.') || ref.startsWith('/') || /\.(c|m)?js$/.test(ref);
}

const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/**
 * Parses an agent reference (see the module comment). Throws {@link AgentRefError} naming the
 * reference when it is empty, its options are not valid JSON, a registered name holds a
 * colon or whitespace, or `#export` follows something that is not a module path.
 */
export function parseAgentRef(text: string): AgentRef {
  if (typeof text !== 'string') throw new AgentRefError(`agent reference: expected a string, got ${typeof text}`);
  const spec = text.trim();
  if (!spec) throw new AgentRefError('agent reference: empty (give a registered name, a module path or name:{json options})');
  const colon = spec.indexOf(':{');
  const head = colon > 0 ? spec.slice(0, colon) : spec;
  let options: { [key: string]: JsonValue } | undefined;
  if (colon > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(spec.slice(colon + 1));
    } catch (e) {
      throw new AgentRefError(`agent "${head}": options are not valid JSON (${(e as Error).message})`);
    }
    options = parsed as { [key: string]: JsonValue }; // text from "{" that parses is an object
  } else if (colon === 0) throw new AgentRefError(`agent reference ${quoted(spec)}: the name comes before the options (name:{...})`);
  const hash = head.indexOf('#');
  const path = hash >= 0 ? head.slice(0, hash) : head;
  if (looksLikePath(path)) {
    const name = hash >= 0 ? head.slice(hash + 1) : '';
    if (hash >= 0 && !name) throw new AgentRefError(`agent reference ${quoted(spec)}: name the export after "#" (module.js#name) or leave "#" out`);
    return { kind: 'module', name, path, ...(options ? { options } : {}) };
  }
  if (hash >= 0) throw new AgentRefError(`agent reference ${quoted(spec)}: "#export" follows a module path (./file.js#name), and "${path}" is not one`);
  if (/[\s:]/.test(head)) {
    throw new AgentRefError(`agent reference ${quoted(spec)}: a registered name has no spaces or colons (options go after the name as name:{"key": value})`);
  }
  return { kind: SPECIAL[head] ?? 'registered', name: head, ...(options ? { options } : {}) };
}

/** The reference as text (`parseAgentRef(formatAgentRef(r))` equals `r`). */
export function formatAgentRef(ref: AgentRef): string {
  const head = ref.kind === 'module' ? `${ref.path}${ref.name ? `#${ref.name}` : ''}` : ref.name;
  return ref.options ? `${head}:${JSON.stringify(ref.options)}` : head;
}

/** A reference given as text or parsed. */
export type AgentRefLike = string | AgentRef;

/** {@link parseAgentRef} for text, the reference itself otherwise. */
export function toAgentRef(ref: AgentRefLike): AgentRef {
  return typeof ref === 'string' ? parseAgentRef(ref) : ref;
}

/** The files a reference reads when its agent is built: its module, and a `neural` agent's checkpoint. */
export function agentRefFiles(ref: AgentRef): string[] {
  const out: string[] = [];
  if (ref.kind === 'module' && ref.path) out.push(ref.path);
  const ckpt = ref.kind === 'neural' ? ref.options?.checkpoint : undefined;
  if (typeof ckpt === 'string' && ckpt) out.push(ckpt);
  return out;
}

/** The reference with its module path replaced by `f(path)` (other kinds are returned unchanged). */
export function mapModulePath(ref: AgentRef, f: (path: string) => string): AgentRef {
  if (ref.kind !== 'module' || !ref.path) return ref;
  const path = f(ref.path);
  return path === ref.path ? ref : { ...ref, path };
}

/** The reference with every option whose value is the string `from` set to `to` (a checkpoint's local copy). */
export function replaceOptionValue(ref: AgentRef, from: string, to: string): AgentRef {
  if (from === to || !ref.options || !Object.values(ref.options).includes(from)) return ref;
  return { ...ref, options: Object.fromEntries(Object.entries(ref.options).map(([k, v]) => [k, v === from ? to : v])) };
}

/** The reference with `options` added where it has none (a served seat's name); otherwise unchanged. */
export function withDefaultOptions(ref: AgentRef, options: { [key: string]: JsonValue }): AgentRef {
  return ref.options ? ref : { ...ref, options };
}
