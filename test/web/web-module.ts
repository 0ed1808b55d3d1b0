import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';

/**
 * Loads one of the page's ES modules (web/js/<name>) in Node for unit tests: the file is
 * compiled to CommonJS as it is and run in a fresh context. Only for modules without imports
 * and without the DOM (web/js/format.js).
 */
export function loadWebModule<T>(name: string): T {
  const file = resolve(__dirname, '..', '..', 'web', 'js', name);
  const out = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 }, fileName: file });
  const module = { exports: {} as Record<string, unknown> };
  runInNewContext(out.outputText, { module, exports: module.exports, require: () => { throw new Error(`${name}: a web module for unit tests may not import`); } }, { filename: file });
  return module.exports as T;
}
