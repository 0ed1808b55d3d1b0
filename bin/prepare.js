'use strict';
// `prepare` (run by `npm ci` / `npm install`): builds dist/. Not under `npx arena` in a fresh
// clone: npm then installs the project into its npx cache, runs this script with its output
// hidden, and the command would look hung for minutes; the `arena` bin builds on its first run
// instead and says so (bin/build.js).
const path = require('node:path');
const { buildDist } = require('./build');

if (process.env.npm_command === 'exec') process.exit(0);
process.exit(buildDist(path.join(__dirname, '..'), 'building after install'));
