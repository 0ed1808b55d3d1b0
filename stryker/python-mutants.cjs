#!/usr/bin/env node
'use strict';
/**
 * Mutation testing of the Python harness (src/sandbox/python-harness.ts) and the other code
 * Stryker cannot mutate: Python inside template strings, run in bubblewrap (`--file`: the slot
 * loop, src/sandbox/python-slot-server.ts; the fork server's, python-fork-server.ts), and the
 * fork server's machine-code init (python-fork-init.ts: its assembly source is mutated and
 * assembled again, stryker/asm-mutants.cjs, and its Python mapping code too). This tool makes one
 * small edit at a time to that Python — a comparison flipped, a boolean or `and`/`or` swapped, a
 * `not` dropped, a result code or string emptied, a number changed, a statement replaced by
 * `pass`, a returned value replaced by None — and runs the Python sandbox tests against each
 * mutant in a copy of the repository (never the working tree). A mutant is killed when a test
 * fails (or the run passes its time limit). Prints the score and every survivor (line and edit);
 * the JSON report goes to test-artifacts/python-mutants/<file>.json (python-harness.json, ...).
 *
 * Usage: node stryker/python-mutants.cjs [--file src/sandbox/x.ts] [--tests a.test.ts,b.test.ts] [--lines 20-120[,5-10...]] [--concurrency 2] [--list]
 *
 * `--file` (default src/sandbox/python-harness.ts) picks the file and its default test list
 * (`DEFAULT_TESTS`); `--tests` replaces that list.
 *
 * `--lines` takes one range or several, comma-separated: their mutants are tested range by range
 * in the order given (the part that matters most first, when a run may have to be stopped early;
 * each finished mutant's line is printed as it ends).
 *
 * The tests mostly wait on sandbox processes (a full run of the default list is ~38 s of wall
 * time for ~11 s of CPU), so `--concurrency N` tests N mutants at once, each in its own copy.
 * The test files run one at a time in the order given (the harness's own case-by-case test
 * first), stopping at the first that fails. A mutant whose test file runs past 3x its unmutated
 * time (at least 2 minutes) is stopped and counted as detected (timeout), like Stryker's.
 */
const { spawn, execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, dirname } = require('node:path');
const { hasAssembly, asmLines, asmMutantsOf, withAssembledLine, assemble, sourceOf, hexOf } = require('./asm-mutants.cjs');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
/**
 * Each file's tests, fast and often-failing first. The harness: its own case-by-case tests first
 * (docs/testing.md: request reading, output limits, the call timer, rlimits, check-mode isolation,
 * error texts), then the grader and attack tests; escape-python.test.ts is left out by default:
 * its memory bomb times out on a loaded machine. The slot loop and the fork init: the unit tests
 * of their inits in a plain python3 (python-slot-loop.test.ts; python-fork-init.test.ts, which
 * also runs every way a run ends through both inits), the servers' isolation tests, then runs
 * through the pool (python-slot-server-protocol.test.ts speaks to stand-in servers, not
 * this Python).
 */
const DEFAULT_TESTS = {
  'src/sandbox/python-harness.ts': ['python-harness', 'python-request-read', 'python-output-limits', 'python-call-timer', 'python-limits', 'python-error-text', 'python-check-isolation', 'grader-python', 'attack-python'],
  'src/sandbox/python-slot-server.ts': ['python-slot-loop', 'python-fork-init', 'python-slot-server', 'python-launcher', 'python-limits', 'python-run-memory', 'python-sandbox-flags', 'python-seccomp', 'python-runner-streams', 'attack-python'],
  'src/sandbox/python-fork-init.ts': ['python-fork-init', 'python-slot-server', 'python-limits', 'python-run-memory', 'python-runner-streams', 'attack-python'],
};
const FILE = opt('--file') ?? 'src/sandbox/python-harness.ts';
if (!existsSync(join(root, FILE))) {
  process.stderr.write(`python-mutants: --file ${FILE}: no such file\n`);
  process.exit(2);
}
const tests = (opt('--tests') ?? (DEFAULT_TESTS[FILE] ?? []).map((t) => `test/sandbox/${t}.test.ts`).join(',')).split(',').filter(Boolean);
if (!tests.length) {
  process.stderr.write(`python-mutants: no default tests for ${FILE}: name them with --tests\n`);
  process.exit(2);
}
const ranges = (opt('--lines') ?? '1-100000').split(',').map((r) => r.split('-').map(Number));
if (ranges.some((r) => r.length !== 2 || !r.every(Number.isInteger) || r[0] > r[1])) {
  process.stderr.write(`python-mutants: --lines takes ranges like 20-120 or 20-120,5-10 (got ${opt('--lines')})\n`);
  process.exit(2);
}
const concurrency = Number(opt('--concurrency') ?? 1);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8) {
  process.stderr.write(`python-mutants: --concurrency must be an integer from 1 to 8 (got ${opt('--concurrency')})\n`);
  process.exit(2);
}

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
  if (/^return\s+\S/.test(stmt) && stmt !== 'return None') out.push([`return value -> None: ${stmt}`, `${indent}return None`]);
  const simple = !/[:\\(\[{,]$/.test(stmt) && !/^(def|class|if|elif|else|for|while|try|except|finally|with|return|import|from|global|nonlocal|pass|break|continue|raise|@)\b/.test(stmt) && !/^[)\]}]/.test(stmt);
  if (simple) out.push([`statement -> pass: ${stmt}`, `${indent}pass`]);
  if (/^(raise|break|continue)\b/.test(stmt)) out.push([`statement -> pass: ${stmt}`, `${indent}pass`]);
  return out;
}

const source = readFileSync(join(root, FILE), 'utf8');
const lines = source.split('\n');
// each mutant: its line, what it changes and the whole mutated text of the file
const mutants = [];
const assembly = hasAssembly(source) ? asmLines(source) : [];
if (assembly.length) {
  // the bytes in the file must be its source's (python-fork-init.test.ts checks it too): a mutant's bytes replace them
  if (assemble(sourceOf(source)) !== hexOf(source)) {
    process.stderr.write(`python-mutants: ${FILE}'s bytes are not the assembly of its source (or as/objcopy are missing)\n`);
    process.exit(2);
  }
}
const code = [...pythonLines(source), ...assembly].sort((a, b) => a - b);
let noMutant = 0;
for (const [fromLine, toLine] of ranges) {
  for (const i of code) {
    if (i + 1 < fromLine || i + 1 > toLine || mutants.some((m) => m.line === i + 1)) continue;
    const asm = assembly.includes(i);
    for (const [what, next] of (asm ? asmMutantsOf : mutantsOf)(lines[i])) {
      const text = asm ? withAssembledLine(source, i, next) : [...lines.slice(0, i), next, ...lines.slice(i + 1)].join('\n');
      if (text) mutants.push({ line: i + 1, what, text });
      else noMutant++; // does not assemble, or assembles to the same bytes
    }
  }
}
if (args.includes('--list')) {
  for (const m of mutants) process.stdout.write(`${m.line}: ${m.what}\n`);
  process.stdout.write(`${mutants.length} mutants${assembly.length ? ` (${noMutant} edits of the assembly left out: not assembled, or the same bytes)` : ''}\n`);
  process.exit(0);
}

// copies of the repository (tracked and new files), node_modules linked: one per concurrent mutant
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
/** A fresh copy of the repository in a temporary folder. */
function makeCopy() {
  const copy = mkdtempSync(join(tmpdir(), 'python-mutants-'));
  for (const f of files) {
    mkdirSync(join(copy, dirname(f)), { recursive: true });
    try {
      writeFileSync(join(copy, f), readFileSync(join(root, f)));
    } catch {
      // deleted in the working tree
    }
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}
const copies = Array.from({ length: concurrency }, makeCopy);

const running = new Set();
/** Runs one test file in a copy; resolves with whether it passed (limitMs: stopped past it, a timeout). */
function runFile(copy, file, limitMs) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn('nice', ['-n', '10', process.execPath, join(root, 'node_modules', 'jest', 'bin', 'jest.js'), file, '--runInBand', '--silent'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status, sig) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ ok: status === 0, timedOut: sig === 'SIGKILL', tail: out.split('\n').filter((l) => /✕/.test(l)).slice(0, 2).map((l) => `${file}: ${l.trim()}`).join(' | ') });
    });
  });
}

/**
 * Runs the test files in a copy in the order given, one jest each, stopping at the first that
 * fails: a mutant is detected when any file fails, as with one run of them all, but a mutant the
 * first file detects costs that file only. limitsMs: each file's time limit.
 */
async function runTests(copy, limitsMs) {
  const started = Date.now();
  const ms = [];
  for (let i = 0; i < tests.length; i++) {
    const t0 = Date.now();
    const r = await runFile(copy, tests[i], limitsMs[i]);
    ms.push(Date.now() - t0);
    if (!r.ok) return { ...r, ms: Date.now() - started, files: ms };
  }
  return { ok: true, timedOut: false, tail: '', ms: Date.now() - started, files: ms };
}

/**
 * Kills every process still working in a copy (its cwd inside it) once a mutant's tests are over:
 * a mutant can leave one behind that no test takes down — the fork init's, a clone of the test's
 * python3 sharing its memory, spun forever in its wait loop (measured: two at 50% of a core for
 * over an hour) — and it would slow every later mutant.
 */
function killLeftovers(copy) {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === copy || cwd.startsWith(`${copy}/`)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

/** Stopped (Ctrl-C, kill): end the running tests and remove the copies; the working tree was never touched. */
function cleanUp() {
  for (const child of running) child.kill('SIGKILL');
  for (const copy of copies) {
    killLeftovers(copy);
    rmSync(copy, { recursive: true, force: true });
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanUp();
    process.exit(130);
  });
}

const results = [];
async function main() {
  const started = Date.now();
  try {
    const base = await runTests(copies[0], tests.map(() => 20 * 60_000));
    if (!base.ok) throw new Error(`the tests fail without any mutant: ${base.tail}`);
    const limitMs = base.files.map((ms) => Math.max(120_000, 3 * ms));
    process.stdout.write(`unmutated: ${tests.map((t, i) => `${t} ${(base.files[i] / 1000).toFixed(1)} s`).join(', ')}\n`);
    let next = 0;
    let done = 0;
    const work = async (copy) => {
      while (next < mutants.length) {
        const k = next++;
        const m = mutants[k];
        writeFileSync(join(copy, FILE), m.text);
        const r = await runTests(copy, limitMs);
        killLeftovers(copy);
        const status = r.ok ? 'survived' : r.timedOut ? 'timeout' : 'killed';
        results[k] = { line: m.line, what: m.what, status, by: r.tail };
        process.stdout.write(`[${++done}/${mutants.length}] ${status.padEnd(8)} line ${m.line}: ${m.what}\n`);
      }
    };
    await Promise.all(copies.map(work));
  } finally {
    cleanUp();
  }
  report(Date.now() - started);
}

function report(ms) {
  const killed = results.filter((r) => r.status !== 'survived').length;
  const timeouts = results.filter((r) => r.status === 'timeout').length;
  process.stdout.write(`\nscore: ${((100 * killed) / Math.max(1, results.length)).toFixed(1)}% (${killed} of ${results.length} detected, ${timeouts} of them by timeout; ${(ms / 60_000).toFixed(1)} min, concurrency ${concurrency})\nsurvivors:\n`);
  for (const r of results.filter((x) => x.status === 'survived')) process.stdout.write(`  line ${r.line}: ${r.what}\n`);
  const out = join(root, 'test-artifacts', 'python-mutants');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${FILE.split('/').pop().replace(/\.ts$/, '')}.json`), JSON.stringify({ file: FILE, tests, lines: ranges, concurrency, minutes: ms / 60_000, results }, null, 2));
}

main().catch((e) => {
  process.stderr.write(`python-mutants: ${e.message}\n`);
  process.exit(1);
});
