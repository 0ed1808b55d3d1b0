#!/usr/bin/env node
'use strict';
/**
 * Mutation testing of the Python harness (src/sandbox/python-harness.ts), which Stryker cannot
 * mutate: its code is Python inside template strings, run in bubblewrap. This tool makes one
 * small edit at a time to that Python — a comparison flipped, a boolean or `and`/`or` swapped, a
 * `not` dropped, a result code or string emptied, a number changed, a statement replaced by
 * `pass`, a returned value replaced by None — and runs the Python sandbox tests against each
 * mutant in a copy of the repository (never the working tree). A mutant is killed when a test
 * fails (or the run passes its time limit). Prints the score and every survivor (line and edit);
 * the JSON report goes to test-artifacts/python-mutants/report.json.
 *
 * Usage: node stryker/python-mutants.cjs [--tests a.test.ts,b.test.ts] [--lines 20-120] [--list]
 */
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, dirname } = require('node:path');

const root = join(__dirname, '..');
const FILE = 'src/sandbox/python-harness.ts';
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
// The harness's own case-by-case test first (docs/testing.md), then the grader and attack tests;
// escape-python.test.ts is left out by default: its memory bomb times out on a loaded machine
const tests = (opt('--tests') ?? 'test/sandbox/python-harness.test.ts,test/sandbox/grader-python.test.ts,test/sandbox/attack-python.test.ts').split(',');
const [fromLine, toLine] = (opt('--lines') ?? '1-100000').split('-').map(Number);

/** Lines (1-based) of the file that are Python code: inside the String.raw templates, not comments or docstrings. */
function pythonLines(text) {
  const lines = text.split('\n');
  const out = [];
  let inPython = false;
  let inDoc = false;
  lines.forEach((line, i) => {
    if (!inPython) {
      if (/String\.raw`\s*$/.test(line) || /String\.raw`\$\{COMMON\}\s*$/.test(line)) inPython = true;
      return;
    }
    if (/^`;\s*$/.test(line)) {
      inPython = false;
      return;
    }
    const t = line.trim();
    const quotes = (t.match(/"""/g) || []).length;
    if (inDoc) {
      if (quotes % 2 === 1) inDoc = false;
      return;
    }
    if (quotes % 2 === 1) {
      inDoc = true;
      return;
    }
    if (!t || t.startsWith('#') || quotes) return;
    out.push(i);
  });
  return out;
}

/** The mutants of one line: [description, new line]. */
function mutantsOf(line) {
  const out = [];
  const code = line.replace(/\s+#.*$/, '');
  const sub = (re, to, what) => {
    let m;
    const g = new RegExp(re.source, 'g');
    while ((m = g.exec(code))) {
      const next = code.slice(0, m.index) + (typeof to === 'function' ? to(m[0]) : to) + code.slice(m.index + m[0].length);
      if (next !== code) out.push([`${what}: ${m[0].trim()} -> ${(typeof to === 'function' ? to(m[0]) : to).trim()}`, next]);
    }
  };
  sub(/ == /, ' != ', 'comparison');
  sub(/ != /, ' == ', 'comparison');
  sub(/ < /, ' <= ', 'boundary');
  sub(/ <= /, ' < ', 'boundary');
  sub(/ > /, ' >= ', 'boundary');
  sub(/ >= /, ' > ', 'boundary');
  sub(/ not in /, ' in ', 'membership');
  if (!/^\s*for\b/.test(code)) sub(/(?<! not) in (?=[\w(["])/, ' not in ', 'membership');
  sub(/ is not /, ' is ', 'identity');
  sub(/\bnot /, '', 'negation');
  sub(/ and /, ' or ', 'logical');
  sub(/ or /, ' and ', 'logical');
  sub(/\bTrue\b/, 'False', 'boolean');
  sub(/\bFalse\b/, 'True', 'boolean');
  sub(/(?<=[^\w.])\d+(\.\d+)?(?=[^\w.]|$)/, (n) => (Number(n) === 0 ? '1' : '0'), 'number');
  sub(/ \+ /, ' - ', 'arithmetic');
  sub(/ - /, ' + ', 'arithmetic');
  // a result code swapped for another (what the host is told); other strings are names and keys
  sub(/"(ok|wrong-answer|runtime-error|syntax-error|timeout|memory-limit|output-limit|exited|killed-by-signal)"/, (s) => (s === '"runtime-error"' ? '"exited"' : '"runtime-error"'), 'result code');
  const indent = /^\s*/.exec(line)[0];
  const stmt = code.trim();
  if (/^return\s+\S/.test(stmt)) out.push([`return value -> None: ${stmt}`, `${indent}return None`]);
  const simple = !/[:\\(\[{,]$/.test(stmt) && !/^(def|class|if|elif|else|for|while|try|except|finally|with|return|import|from|global|nonlocal|pass|break|continue|raise|@)\b/.test(stmt) && !/^[)\]}]/.test(stmt);
  if (simple) out.push([`statement -> pass: ${stmt}`, `${indent}pass`]);
  if (/^(raise|break|continue)\b/.test(stmt)) out.push([`statement -> pass: ${stmt}`, `${indent}pass`]);
  return out;
}

const source = readFileSync(join(root, FILE), 'utf8');
const lines = source.split('\n');
const mutants = [];
for (const i of pythonLines(source)) {
  if (i + 1 < fromLine || i + 1 > toLine) continue;
  for (const [what, next] of mutantsOf(lines[i])) mutants.push({ line: i + 1, what, next });
}
if (args.includes('--list')) {
  for (const m of mutants) process.stdout.write(`${m.line}: ${m.what}\n`);
  process.stdout.write(`${mutants.length} mutants\n`);
  process.exit(0);
}

// a copy of the repository (tracked and new files), node_modules linked
const copy = mkdtempSync(join(tmpdir(), 'python-mutants-'));
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
for (const f of files) {
  mkdirSync(join(copy, dirname(f)), { recursive: true });
  try {
    writeFileSync(join(copy, f), readFileSync(join(root, f)));
  } catch {
    // deleted in the working tree
  }
}
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));

let current = null;
/** Runs the tests in the copy; resolves with whether they passed. */
function runTests() {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn('nice', ['-n', '10', process.execPath, join(root, 'node_modules', 'jest', 'bin', 'jest.js'), ...tests, '--runInBand', '--bail=1', '--silent'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20 * 60_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status, sig) => {
      clearTimeout(timer);
      current = null;
      resolve({ ok: status === 0, timedOut: sig === 'SIGKILL', tail: out.split('\n').filter((l) => /✕/.test(l)).slice(0, 2).join(' | ') });
    });
  });
}

/** Stopped (Ctrl-C, kill): end the running tests and remove the copy; the working tree was never touched. */
function cleanUp() {
  current?.kill('SIGKILL');
  rmSync(copy, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanUp();
    process.exit(130);
  });
}

const results = [];
async function main() {
  try {
    const base = await runTests();
    if (!base.ok) throw new Error(`the tests fail without any mutant: ${base.tail}`);
    for (let k = 0; k < mutants.length; k++) {
      const m = mutants[k];
      const mutated = lines.slice();
      mutated[m.line - 1] = m.next;
      writeFileSync(join(copy, FILE), mutated.join('\n'));
      const r = await runTests();
      const status = r.ok ? 'survived' : r.timedOut ? 'timeout' : 'killed';
      results.push({ ...m, status, by: r.tail });
      process.stdout.write(`[${k + 1}/${mutants.length}] ${status.padEnd(8)} line ${m.line}: ${m.what}\n`);
    }
  } finally {
    cleanUp();
  }
  report();
}

function report() {
  const killed = results.filter((r) => r.status !== 'survived').length;
  process.stdout.write(`\nscore: ${((100 * killed) / Math.max(1, results.length)).toFixed(1)}% (${killed} of ${results.length} killed)\nsurvivors:\n`);
  for (const r of results.filter((x) => x.status === 'survived')) process.stdout.write(`  line ${r.line}: ${r.what}\n`);
  const out = join(root, 'test-artifacts', 'python-mutants');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.json'), JSON.stringify({ file: FILE, tests, results }, null, 2));
}

main().catch((e) => {
  process.stderr.write(`python-mutants: ${e.message}\n`);
  process.exit(1);
});
