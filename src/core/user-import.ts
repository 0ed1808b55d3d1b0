/**
 * `import()` of a user's ES module (src/core/registry.ts loads modules with it when `require`
 * cannot), with a preparation run once before the first such import: the CLI registers its ESM
 * loader hook there (app/cli/self-resolve.ts), so commands that load only CommonJS modules never
 * pay for the loader hooks' thread.
 */
import { pathToFileURL } from 'node:url';

let prepare: (() => void) | undefined;

/** Sets the function run once before the next first {@link importUserModule} (replacing any not yet run). */
export function beforeFirstUserImport(fn: () => void): void {
  prepare = fn;
}

/** Imports the ES module at the absolute path `abs`, after the pending preparation if any. */
export async function importUserModule(abs: string): Promise<unknown> {
  const run = prepare;
  prepare = undefined;
  run?.();
  return import(pathToFileURL(abs).href);
}
