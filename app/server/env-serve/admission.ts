/**
 * Which agents a client of `arena env-serve` may put in the other seats. A client names agents
 * by reference string (`fair-split`, `./bot.js#x`, `llm:{...}`, `neural:{...}`); loading one
 * runs code in the server (a module's top level), reaches out (an LLM endpoint, with the key an
 * environment variable holds) or reads a file (a checkpoint). So the server admits from clients
 * only the references its operator wrote on the command line — `--agents` and `--client-agents`
 * — compared as exact strings: `random` admitted does not admit `random:{...}`, and a module
 * path, `llm:` spec or checkpoint is admitted only when the operator listed that very text.
 * Nothing a client names is parsed, resolved or loaded before it is admitted.
 *
 * Works on reference strings only, so it does not depend on how references are parsed or how
 * agents are built from them.
 */

/** A client's agent list that is refused: `field` (`agents` or `agents.<i>`) and why. */
export class AdmissionError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'AdmissionError';
  }
}

/** The references clients may name, in the operator's order (no duplicates). */
export interface Admission {
  readonly allowed: readonly string[];
}

/**
 * The admission of a server whose operator gave `agents` (the default agents, `--agents`) and
 * `clientAgents` (`--client-agents`: more references clients may choose). Empty and repeated
 * entries are dropped.
 */
export function admissionOf(agents: readonly string[], clientAgents: readonly string[] = []): Admission {
  const allowed: string[] = [];
  for (const ref of [...agents, ...clientAgents]) if (ref && !allowed.includes(ref)) allowed.push(ref);
  return { allowed };
}

/** Whether `ref` is one of the admitted references (exact string equality). */
export function admits(admission: Admission, ref: unknown): boolean {
  return typeof ref === 'string' && admission.allowed.includes(ref);
}

/**
 * Checks a client's `agents` list (already known to be an array of strings of sane length);
 * returns it unchanged when every entry is admitted, else throws an AdmissionError naming the
 * first refused entry (`agents.<i>`) and the references this server admits. The refused text is
 * not echoed back.
 */
export function admitAgents(admission: Admission, requested: readonly string[]): string[] {
  requested.forEach((ref, i) => {
    if (!admits(admission, ref)) {
      throw new AdmissionError(`agents.${i}`, `not an agent this server lets clients choose (allowed: ${describeAllowed(admission)}); its operator adds more with --client-agents`);
    }
  });
  return [...requested];
}

/** The admitted references as one line (each JSON-quoted when it holds a comma or a brace). */
export function describeAllowed(admission: Admission): string {
  if (!admission.allowed.length) return 'none';
  return admission.allowed.map((r) => (/[,{}\s"]/.test(r) ? JSON.stringify(r) : r)).join(', ');
}
