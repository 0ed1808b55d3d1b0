#!/usr/bin/env node
'use strict';
// The `arena` command. The TypeScript sources are compiled to dist/ by `npm ci` (prepare) or
// `npm run build`; when dist/ is missing (a fresh clone run with `npx arena`, an install with
// --ignore-scripts) the first run builds it, saying so (bin/build.js).
const path = require('node:path');
const fs = require('node:fs');
const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'app', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  const status = require('./build').buildDist(root, 'dist/ is missing (first run after a clone?)');
  if (status !== 0) process.exit(status);
}
require(entry).main(process.argv);
