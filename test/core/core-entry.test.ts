/**
 * The light entry `selfplay-arena/core` (src/core/index.ts, package.json "exports" ./core): a
 * fresh process that requires it by the package's name loads none of the heavy packages, and a
 * TypeScript consumer compiles against its built declarations with `skipLibCheck: false`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';
import { ensureBuilt } from '../fixtures/built';

const ROOT = resolve(__dirname, '..', '..');
ensureBuilt();

/** Packages an env author must not pay for when loading the core entry. */
const HEAVY = ['socket.io', 'better-sqlite3', '@tensorflow/', 'bullmq', 'ioredis', 'isolated-vm', 'openai'];

/** Loads `request` (resolved from the package root, through its "exports") in a fresh Node process; the files in require.cache. */
function loadedFiles(request: string): string[] {
  const script = `require(${JSON.stringify(request)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`loading ${request} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

const heavyIn = (files: string[]) => HEAVY.filter((h) => files.some((f) => f.includes(`/node_modules/${h}`)));

test('require("selfplay-arena/core") loads none of socket.io, better-sqlite3, tfjs, bullmq, ioredis, isolated-vm, openai', () => {
  const core = loadedFiles('selfplay-arena/core');
  expect(core.some((f) => f.endsWith(join('dist', 'src', 'core', 'index.js')))).toBe(true);
  expect(heavyIn(core)).toEqual([]);
  const full = loadedFiles('selfplay-arena');
  // the check can fail: the full entry does load the heavy packages
  expect(heavyIn(full).length).toBeGreaterThan(0);
  console.log(`modules loaded: require('selfplay-arena/core') ${core.length}, require('selfplay-arena') ${full.length}`);
});

test('the core entry exports the contracts an env author needs, and they work', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const core = require(join(ROOT, 'dist', 'src', 'core', 'index.js')) as typeof import('../../src/core/index');
  for (const name of ['defineEnv', 'defineAgent', 'Rng', 'checkEnv', 'normalizeEnv', 'playout', 'replay', 'formatReport']) {
    expect(typeof (core as Record<string, unknown>)[name]).toBe('function');
  }
  expect(core.Rng.fromSeed(7).next()).toBe(core.Rng.fromSeed(7).next());
});

/**
 * Compiles consumer files (name -> source) of a package that depends on this one, in one
 * program; the diagnostics as "file: message" lines.
 */
function compileConsumer(sources: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'arena-core-types-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'selfplay-arena'), 'dir');
  const files = Object.entries(sources).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${basename(d.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

test('a TypeScript consumer compiles against the built core types without skipLibCheck', () => {
  const diagnostics = compileConsumer({
    'consumer.ts': `
import { defineEnv, checkEnv, Rng, type EnvDefinition } from 'selfplay-arena/core';
const rng: Rng = Rng.fromSeed(1);
const n: number = rng.next();
export { defineEnv, checkEnv, n };
export type E = EnvDefinition;
`,
    // the check can fail: a wrong use is reported
    'wrong.ts': `import { Rng } from 'selfplay-arena/core';\nconst s: string = Rng.fromSeed(1).next();\nexport { s };\n`,
  });
  expect(diagnostics.filter((d) => !d.startsWith('wrong.ts:'))).toEqual([]);
  expect(diagnostics.join('\n')).toMatch(/^wrong\.ts: .*not assignable to type 'string'/m);
}, 120_000);
