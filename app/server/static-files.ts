import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { packageRoot } from '../../src/package-root';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The package's web/ folder (source under ts-jest, or dist/: found from the package root). */
export function defaultWebRoot(): string {
  const web = join(packageRoot(), 'web');
  if (!existsSync(join(web, 'index.html'))) throw new Error(`${web}/index.html not found; pass webRoot`);
  return web;
}

/** The chart.js UMD bundle the page loads as /vendor/chart.umd.min.js. */
export function chartJsFile(): string | null {
  try {
    return join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
  } catch {
    return null;
  }
}

/** Text served at a fixed path, built once (vendor bundles assembled from node_modules). */
export interface Generated {
  type: string;
  text: () => string | null;
}


/**
 * highlight.js for the page, as one ES module built from the npm package's CommonJS files
 * (core + JavaScript, TypeScript and Python, registered): `import hljs from '/vendor/highlight.js'`.
 */
export function highlightBundle(): Generated {
  let cached: string | null | undefined;
  return {
    type: TYPES['.js'],
    text: () => {
      if (cached !== undefined) return cached;
      const parts = ['lib/core.js', 'lib/languages/javascript.js', 'lib/languages/typescript.js', 'lib/languages/python.js'].map((f) => {
        const path = packageFile('highlight.js', f);
        return path ? readFileSync(path, 'utf8') : null;
      });
      if (parts.some((p) => p === null)) return (cached = null);
      const wrap = (src: string) => `(function () { const module = { exports: {} }; const exports = module.exports; ${src}\n; return module.exports; })()`;
      cached = `// highlight.js (BSD-3-Clause), bundled by selfplay-arena's server\nconst hljs = ${wrap(parts[0]!)};\nhljs.registerLanguage('javascript', ${wrap(parts[1]!)});\nhljs.registerLanguage('typescript', ${wrap(parts[2]!)});\nhljs.registerLanguage('python', ${wrap(parts[3]!)});\nexport default hljs;\n`;
      return cached;
    },
  };
}

/** A file of an npm package (vendor files served as they ship), or null when not installed. */
export function packageFile(pkg: string, file: string): string | null {
  try {
    const path = join(dirname(require.resolve(`${pkg}/package.json`)), file);
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** The decoded path of a request's URL, or null when it does not decode. */
function requestPath(req: IncomingMessage): string | null {
  try {
    return decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return null;
  }
}

/**
 * The file under `base` (resolved) that `path` names, or null where the path holds a NUL, a hidden
 * part (`.x`, `..`) or leaves `base`.
 */
function fileUnder(base: string, path: string): string | null {
  if (path.includes('\0') || path.split('/').some((part) => part.startsWith('.'))) return null;
  const file = resolve(base, '.' + normalize(path));
  return file.startsWith(base + sep) ? file : null;
}

/** Sends `file` for GET (headers only for HEAD); false when it has no known type or is not a plain file. */
function sendFile(file: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (!TYPES[extname(file)] || !existsSync(file) || !statSync(file).isFile()) return false;
  const body = readFileSync(file);
  res.writeHead(200, { 'content-type': TYPES[extname(file)], 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * Serves files under `root` (and the fixed `/vendor/...` files in `extra`: a path on disk, or
 * generated text) for GET/HEAD.
 * Paths that leave the root, hidden files and unknown types are 404. Returns false when the
 * request is not for a static file it has.
 */
export function createStatic(root: string, extra: Record<string, string | Generated | null>): (req: IncomingMessage, res: ServerResponse) => boolean {
  const base = resolve(root);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let path = requestPath(req);
    if (path === null) return false;
    const fixed = extra[path];
    if (fixed && typeof fixed === 'object') {
      const text = fixed.text();
      if (text === null) return false;
      const body = Buffer.from(text);
      res.writeHead(200, { 'content-type': fixed.type, 'content-length': body.length, 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    }
    let file: string | null | undefined = fixed;
    if (file === undefined) {
      if (path === '/') path = '/index.html';
      file = fileUnder(base, path);
    }
    return !!file && sendFile(file, req, res);
  };
}

/** The package's envs/ folder (the built-in envs' page files: envs/<env>/web/). */
export function defaultEnvsRoot(): string {
  return join(packageRoot(), 'envs');
}

/**
 * Serves the built-in envs' page files for GET/HEAD: `/envs/<env>/web/<file>` from
 * `<envsRoot>/<env>/web/` (an env's renderer and its styles), and nothing else of an env's
 * folder (its sources, tasks and data stay private). Hidden files, paths that leave the folder and
 * unknown types are 404. Returns false when the request is not for such a file.
 */
export function createEnvPages(envsRoot: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  const base = resolve(envsRoot);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const m = /^\/envs\/([a-z0-9][a-z0-9-]*)\/web(\/.+)$/.exec(requestPath(req) ?? '');
    if (!m) return false;
    const file = fileUnder(join(base, m[1], 'web'), m[2]);
    return !!file && sendFile(file, req, res);
  };
}
