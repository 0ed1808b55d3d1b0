import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { packageRoot } from '../package-root';

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

/**
 * highlight.js as the page loads it: the CommonJS core (web/js/highlight.js evaluates it with a
 * `module` object), the JavaScript and TypeScript grammars (ES modules) and a light theme.
 * Paths are null when the package is missing (the page then shows plain source).
 */
export function highlightJsFiles(): Record<string, string | null> {
  let root: string | null;
  try {
    root = dirname(require.resolve('highlight.js/package.json'));
  } catch {
    root = null;
  }
  const at = (rel: string) => (root ? join(root, rel) : null);
  return {
    '/vendor/highlight/core.js': at('lib/core.js'),
    '/vendor/highlight/javascript.js': at('es/languages/javascript.js'),
    '/vendor/highlight/typescript.js': at('es/languages/typescript.js'),
    '/vendor/highlight/github.css': at('styles/github.min.css'),
  };
}

/**
 * Serves files under `root` (and the fixed `/vendor/...` files in `extra`) for GET/HEAD.
 * Paths that leave the root, hidden files and unknown types are 404. Returns false when the
 * request is not for a static file it has.
 */
export function createStatic(root: string, extra: Record<string, string | null>): (req: IncomingMessage, res: ServerResponse) => boolean {
  const base = resolve(root);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return false;
    }
    let file: string | null | undefined = extra[path];
    if (file === undefined) {
      if (path === '/') path = '/index.html';
      if (path.includes('\0') || path.split('/').some((part) => part.startsWith('.'))) return false;
      file = resolve(base, '.' + normalize(path));
      if (!file.startsWith(base + sep)) return false;
    }
    if (!file || !TYPES[extname(file)] || !existsSync(file) || !statSync(file).isFile()) return false;
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)], 'content-length': body.length, 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
