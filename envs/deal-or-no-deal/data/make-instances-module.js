#!/usr/bin/env node
// Regenerates instances.ts from bargaining_instances1000.txt (run from anywhere:
// `node envs/deal-or-no-deal/data/make-instances-module.js`). The runtime reads the generated
// TypeScript module, because the compiled dist/ tree carries no .txt files.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const lines = readFileSync(join(__dirname, 'bargaining_instances1000.txt'), 'utf8').split('\n').filter(Boolean);
const rows = [];
for (let i = 0; i < lines.length; i += 8) rows.push('  ' + lines.slice(i, i + 8).map((l) => `'${l}'`).join(', ') + ',');
const text = [
  '/**',
  ' * GENERATED from bargaining_instances1000.txt (OpenSpiel, Apache-2.0; see ../README.md) so that the',
  ' * compiled tree needs no .txt file. Do not edit: regenerate with `node envs/deal-or-no-deal/data/make-instances-module.js`.',
  ' * Line format: `pool p0values p1values`, e.g. `1,2,3 8,1,0 4,0,2`.',
  ' */',
  'export const BARGAINING_INSTANCES_1000: readonly string[] = [',
  ...rows,
  '];',
  '',
].join('\n');
writeFileSync(join(__dirname, 'instances.ts'), text);
process.stdout.write(`wrote ${lines.length} instances to instances.ts\n`);
