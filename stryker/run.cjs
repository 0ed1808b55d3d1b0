#!/usr/bin/env node
'use strict';
/**
 * `npm run test:mutation -- <area...>`: Stryker on one or more areas (stryker/<area>.json, and
 * each built-in env's envs/<env>/stryker.json as the area <env>), each file mutated against its
 * own tests, incrementally (reruns only retest changed code). Reports go to
 * test-artifacts/stryker/<area>/ (HTML and JSON). Without an area it lists them.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const here = __dirname;
const root = join(here, '..');
/** Area name -> its config file: stryker/<area>.json, and envs/<env>/stryker.json (an env's config lives in its folder). */
const configs = new Map(readdirSync(here).filter((f) => f.endsWith('.json') && f !== 'base.json').map((f) => [f.slice(0, -5), join(here, f)]));
for (const env of readdirSync(join(root, 'envs'))) {
  const file = join(root, 'envs', env, 'stryker.json');
  if (!existsSync(file)) continue;
  if (configs.has(env)) {
    process.stderr.write(`test:mutation: the area "${env}" is configured twice (stryker/${env}.json and envs/${env}/stryker.json)\n`);
    process.exit(2);
  }
  configs.set(env, file);
}
const areas = [...configs.keys()].sort();
const args = process.argv.slice(2);
// `--mutate <glob>` (or any other Stryker option) after the areas goes to Stryker as is, e.g. one file at a time.
const firstOption = args.findIndex((a) => a.startsWith('--'));
const wanted = firstOption < 0 ? args : args.slice(0, firstOption);
const passThrough = firstOption < 0 ? [] : args.slice(firstOption);
if (!wanted.length) {
  process.stdout.write(`areas: ${areas.join(', ')}\nusage: npm run test:mutation -- <area...> | all [--mutate <file>]\n`);
  process.exit(0);
}
const list = wanted[0] === 'all' ? areas : wanted;
for (const a of list) {
  if (!areas.includes(a)) {
    process.stderr.write(`test:mutation: unknown area "${a}" (known: ${areas.join(', ')})\n`);
    process.exit(2);
  }
}
const base = JSON.parse(readFileSync(join(here, 'base.json'), 'utf8'));
let failed = 0;
for (const a of list) {
  const area = JSON.parse(readFileSync(configs.get(a), 'utf8'));
  const out = join('test-artifacts', 'stryker', a);
  mkdirSync(join(root, out), { recursive: true });
  const config = {
    ...base,
    ...area,
    // the area's jest options add to the base ones (enableFindRelatedTests: false must survive)
    jest: { ...base.jest, ...area.jest, config: { ...base.jest?.config, ...area.jest?.config } },
    incrementalFile: join(out, 'incremental.json'),
    htmlReporter: { fileName: join(out, 'report.html') },
    jsonReporter: { fileName: join(out, 'report.json') },
  };
  delete config.$comment;
  const file = join(root, out, 'stryker.conf.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  process.stdout.write(`\n=== mutation testing: ${a} (${area.$comment ?? ''})\n`);
  const r = spawnSync(process.execPath, [join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', file, ...passThrough], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
