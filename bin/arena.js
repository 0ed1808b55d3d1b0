#!/usr/bin/env node
'use strict';
// The `arena` command. The TypeScript sources are compiled to dist/ by `npm ci` (prepare) or `npm run build`.
const path = require('node:path');
const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
let cli;
try {
  cli = require(entry);
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes('main.js')) {
    process.stderr.write('arena: dist/ is missing; run `npm run build` (npm ci builds it automatically)\n');
    process.exit(2);
  }
  throw e;
}
cli.main(process.argv);
