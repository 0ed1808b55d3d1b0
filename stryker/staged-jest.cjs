#!/usr/bin/env node
'use strict';
/**
 * `node stryker/staged-jest.cjs a.test.ts b.test.ts ...`: runs jest on each test file in the
 * order given, one file at a time (--runInBand), and stops at the first that fails (exit 1), so a
 * mutant the first file detects costs that file only. The command of areas whose mutants run
 * outside jest's process (the `js-harness` area: Stryker's command runner, coverage off): Stryker
 * counts a mutant as killed when this exits non-zero, as it would with one jest run of all the
 * files. Jest cannot bail within a run from Stryker's jest runner, and orders files by its own
 * timing cache; here the area's config sets the order (fast, often-failing files first).
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const files = process.argv.slice(2);
if (!files.length || files.some((f) => f.startsWith('-'))) {
  process.stderr.write('usage: node stryker/staged-jest.cjs <test file>...\n');
  process.exit(2);
}
const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
for (const file of files) {
  const r = spawnSync(process.execPath, [jest, file, '--runInBand', '--silent', '--ci'], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`staged-jest: ${file} failed (${r.signal ?? `exit ${r.status}`}); the files after it were not run\n`);
    process.exit(1);
  }
}
