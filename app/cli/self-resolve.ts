/**
 * Makes modules loaded by the `arena` command (a loose `./kuhn-poker.js`, an agents module, a
 * league config's modules) resolve `selfplay-arena` — and its exported subpaths such as
 * `selfplay-arena/client` — to the running package, whether or not it is installed beside them,
 * so they share its `Rng`, types and registry. CommonJS `require` goes through a
 * `Module._resolveFilename` hook, ESM `import` through a loader resolve hook
 * (`module.register`); both resolve the name as the package resolves itself (its `exports`).
 * A package folder of any name works (unlike NODE_PATH, which needs a folder named
 * `selfplay-arena`). Installed per thread: the CLI's worker installs its own.
 */
import Module, { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-root';
import { beforeFirstUserImport } from '../../src/core/user-import';

/** The package name that loaded modules may require or import. */
export const PACKAGE_NAME = 'selfplay-arena';

/** Whether `request` names the package or one of its subpaths. */
export function isPackageRequest(request: string): boolean {
  return request === PACKAGE_NAME || request.startsWith(`${PACKAGE_NAME}/`);
}

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
interface ModuleInternals {
  _resolveFilename: ResolveFilename;
  _nodeModulePaths(dir: string): string[];
}

let installed = false;

/**
 * Installs both hooks in this thread (once; later calls do nothing). `root` is the package folder
 * (default: the running one).
 */
export function installSelfResolve(root: string = packageRoot()): void {
  if (installed) return;
  installed = true;
  const internals = Module as unknown as ModuleInternals;
  const original = internals._resolveFilename;
  // A parent inside the package: Node's self-reference then resolves the name through "exports".
  const self = { id: join(root, 'package.json'), filename: join(root, 'package.json'), paths: internals._nodeModulePaths(root) };
  internals._resolveFilename = function (request, parent, isMain, options) {
    return original.call(this, request, isPackageRequest(request) ? self : parent, isMain, isPackageRequest(request) ? undefined : options);
  };
  const parentURL = pathToFileURL(join(root, 'package.json')).href;
  const hook =
    `const P=${JSON.stringify(PACKAGE_NAME)},U=${JSON.stringify(parentURL)};` +
    'export async function resolve(s,c,n){return s===P||s.startsWith(P+"/")?n(s,{...c,parentURL:U}):n(s,c);}';
  // Registering starts the loader hooks' thread (about the cost of a Node start): only before the
  // first ES module a command imports (src/core/user-import.ts).
  beforeFirstUserImport(() => register(`data:text/javascript,${encodeURIComponent(hook)}`));
}
