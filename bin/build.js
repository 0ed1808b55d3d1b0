'use strict';
// Compiles the TypeScript sources to dist/ (what `npm run build` does), saying so on stderr:
// the `arena` bin builds on its first run when dist/ is missing, and `npm ci` builds through
// `prepare` (bin/prepare.js). Plain CommonJS with no dependency but TypeScript itself.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** The TypeScript compiler's script in the project at `root`, or null when TypeScript is not installed there. */
function tscPath(root) {
  try {
    return require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    return null;
  }
}

/**
 * Builds dist/ under `root`, telling `why` first and the time taken after; returns the exit
 * status (0 built, 1 the compiler failed: its messages are on stderr, 2 TypeScript is missing).
 */
function buildDist(root, why) {
  const tsc = tscPath(root);
  if (!tsc) {
    process.stderr.write(`arena: ${why}, and TypeScript is not installed here to build it: run \`npm ci\` (it builds dist/)\n`);
    return 2;
  }
  process.stderr.write(`arena: ${why}: compiling the TypeScript sources to dist/ (\`npm run build\`, a minute or two, once)...\n`);
  const t0 = Date.now();
  // The compiler's messages go to stderr, so a command's stdout stays its own.
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (r.status !== 0) {
    process.stderr.write(`arena: the build failed (${r.error ? r.error.message : `tsc exit ${r.status}`}); fix what it says, then run \`npm run build\`\n`);
    return 1;
  }
  process.stderr.write(`arena: built dist/ in ${Math.round((Date.now() - t0) / 1000)} s\n`);
  return 0;
}

module.exports = { buildDist, tscPath };
