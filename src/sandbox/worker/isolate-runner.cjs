// @ts-check
'use strict';
/**
 * Runs JavaScript inside isolated-vm (in a sandbox worker process, never in the arena's own
 * process): programs against tests, and the kernel lab's staged, timed calls. Every outcome is
 * a result code; nothing a program does reaches the host.
 */
const ivm = require('isolated-vm');
const { BOOTSTRAP } = require('./isolate-bootstrap.cjs');

const UNDEFINED = '\u0000undefined';
const TOO_LONG = '\u0000too-long:';

/** One line of an error, truncated. */
function oneLine(text, max = 300) {
  const s = String(text).split('\n')[0];
  return s.length > max ? s.slice(0, max - 3) + '...' : s;
}

/**
 * The result code of an error thrown by isolated-vm while running untrusted code.
 * `running`: the error came from running a program that compiled (its load, the lookup of its
 * entry — a getter may run there —, a test's call), so a SyntaxError there is one the program
 * threw (`JSON.parse` of bad text, `new Function`, a `RegExp`): a runtime error, as in Python;
 * only a compile's SyntaxError is `syntax-error`.
 * @param {unknown} e
 * @param {import('isolated-vm').Isolate} isolate
 * @param {boolean} [running]
 */
function classify(e, isolate, running = false) {
  const message = oneLine(e instanceof Error ? e.message : String(e));
  if (isolate.isDisposed || /memory limit|Array buffer allocation failed|allocation failed/i.test(message)) return { code: 'memory-limit', message };
  if (/Script execution timed out/i.test(message)) return { code: 'timeout', message };
  if (!running && e instanceof Error && e.name === 'SyntaxError') return { code: 'syntax-error', message };
  if (/RangeError: Maximum call stack/i.test(message) || /Maximum call stack/i.test(message)) return { code: 'runtime-error', message };
  return { code: 'runtime-error', message: (e instanceof Error && e.name && !message.startsWith(e.name) ? e.name + ': ' : '') + message };
}

/**
 * The result code of a source that does not compile: `syntax-error` (also for an error that is
 * not a SyntaxError, such as a stack overflow on a deeply nested source), unless the isolate ran
 * out of memory or time. Code runs and the kernel lab both answer a compile failure with this.
 * @param {unknown} e
 * @param {import('isolated-vm').Isolate} isolate
 */
function compileFailure(e, isolate) {
  const c = classify(e, isolate);
  return { code: c.code === 'runtime-error' ? 'syntax-error' : c.code, message: c.message };
}

/** Contexts made with the bootstrap run (`harnessOf`): code runs, prepared ones, property checks, lab kernels. */
let contextsMade = 0;

/** Compiled scripts per isolate (the bootstrap, recent programs): compiling is most of a run's cost. */
const compiled = new WeakMap();

/** Sources larger than this are compiled every time (a cache of big programs would fill the shared isolate). */
const CACHE_SOURCE_MAX = 64 * 1024;
/** Characters of source a cache may hold per isolate. */
const CACHE_BUDGET = 1024 * 1024;

/**
 * `source` compiled for `isolate`, from a small per-isolate cache (small sources only, bounded).
 * A script that is not cached is released by `done(script)` after its run.
 */
function compile(isolate, source, filename) {
  if (source.length > CACHE_SOURCE_MAX) return isolate.compileScriptSync(source, { filename });
  let cache = compiled.get(isolate);
  if (!cache) compiled.set(isolate, (cache = { scripts: new Map(), chars: 0 }));
  let script = cache.scripts.get(source);
  if (!script) {
    script = isolate.compileScriptSync(source, { filename });
    while (cache.scripts.size && (cache.scripts.size >= 64 || cache.chars + source.length > CACHE_BUDGET)) {
      const oldest = cache.scripts.keys().next().value;
      cache.scripts.get(oldest).release();
      cache.scripts.delete(oldest);
      cache.chars -= oldest.length;
    }
    cache.scripts.set(source, script);
    cache.chars += source.length;
  }
  return script;
}

/**
 * Releases a script unless the cache holds it (releasing one of a disposed isolate is allowed:
 * js-runner-resources.test.ts loads an uncached program that runs out of memory).
 */
function done(isolate, script) {
  const cache = compiled.get(isolate);
  for (const s of cache ? cache.scripts.values() : []) if (s === script) return;
  script.release();
}

/**
 * A fresh context of `isolate` with the bootstrap run; returns the harness References.
 * `wasmPages`: 0 removes WebAssembly (code runs); otherwise the cap on every module's memory.
 */
function harnessOf(isolate, wasmPages = 0) {
  const context = isolate.createContextSync();
  contextsMade++;
  const factory = compile(isolate, BOOTSTRAP, 'bootstrap.js').runSync(context, { reference: true });
  const harness = factory.applySync(undefined, [new ivm.ExternalCopy({ wasmPages }).copyInto()], { result: { reference: true } });
  factory.release();
  const refs = [harness];
  const get = (name) => {
    const r = harness.getSync(name, { reference: true });
    refs.push(r);
    return r;
  };
  const h = { context, call: get('call'), check: get('check'), stage: get('stage'), run: get('run'), modified: get('modified'), refs };
  // Every Reference pins its context: all are released with it, or a reused isolate fills up.
  h.release = () => {
    for (const r of refs) r.release();
    context.release();
  };
  return h;
}

const ENTRY_RE = /^[A-Za-z_$][\w$]*$/;

/**
 * Whether `entry` can name the program's function: an identifier's characters, and no reserved
 * word (`if`, `class`, `this`): the lookup of a reserved word does not compile, and every program
 * was then reported a syntax error of its own. The check compiles a declaration of the name in
 * this process and never runs it (the name is letters, digits, `_` and `$` only).
 */
function isEntry(entry) {
  if (!ENTRY_RE.test(entry)) return false;
  try {
    new Function(`var ${entry};`);
  } catch (e) {
    return false;
  }
  return true;
}

/** An expression whose value is the program's function `entry` (a global or a top-level binding), or undefined. */
const LOOKUP = (entry) => `(typeof ${entry} === 'function' ? ${entry} : undefined)`;

/**
 * The program with its entry's lookup appended: run as one script, its completion value is the
 * entry function, so loading the program and finding its entry take one call into the isolate
 * instead of two (each call is a trip to the isolate's thread and back, measured ~40 µs of CPU
 * here, more wall time on a loaded core). The lookup starts with a `const` declaration on a line
 * of its own: it cannot continue an expression, nor be the body of a statement the program left
 * without one (`if (x)`, `while (x)`, `label:`, `else`: a lexical declaration is not allowed
 * there), so a program that is a syntax error alone is one with the lookup too — one left open
 * in a comment, string, template or block swallows the lookup and stays open — and a valid
 * program stays valid (unless it declares the name itself). When the joined source does not
 * compile, the program is compiled alone, for its own error, and looked up in a second call as
 * before.
 */
const withLookup = (program, entry) => `${program}\nconst __sandbox_entry__ = ${LOOKUP(entry)};\n__sandbox_entry__`;

let shared = null; // { isolate, memoryMb, runs, chars }: reused across runs while healthy (a fresh context per run)
/** Isolates made for code runs by this worker (the shared one, each time it was replaced). */
let isolatesMade = 0;

/**
 * An isolate is replaced after this many runs or characters of program source: whatever a run
 * leaves in its heap (compiled code, caches) cannot pile up against later runs. A fresh isolate
 * costs more than its creation (~15 ms): its heap grows again and the bootstrap is compiled and
 * warmed again; measured, replacing it every 500 runs cost ~0.4 ms per run.
 */
const ISOLATE_RUNS = 2000;
const ISOLATE_CHARS = 4 * 1024 * 1024;

function isolateFor(memoryMb, sourceChars) {
  if (shared && !shared.isolate.isDisposed && shared.memoryMb === memoryMb && shared.runs < ISOLATE_RUNS && shared.chars + sourceChars <= ISOLATE_CHARS) {
    shared.runs++;
    shared.chars += sourceChars;
    return shared.isolate;
  }
  if (shared && !shared.isolate.isDisposed) shared.isolate.dispose();
  isolatesMade++;
  shared = { isolate: new ivm.Isolate({ memoryLimit: memoryMb }), memoryMb, runs: 1, chars: sourceChars };
  return shared.isolate;
}

/** A fresh context of the shared isolate with the bootstrap run, made between runs for the next one (`prepare`). */
let prepared = null; // { isolate, h }

/**
 * Makes the next code run's fresh context now, while the worker would wait for its request: a
 * new context of the shared isolate with the bootstrap run, no program code (the run that takes
 * it finds what `harnessOf` would have made). Nothing when the isolate is due to be replaced.
 */
function prepare() {
  if (prepared || poisoned || !shared || shared.isolate.isDisposed || shared.runs >= ISOLATE_RUNS) return;
  try {
    prepared = { isolate: shared.isolate, h: harnessOf(shared.isolate) };
  } catch (e) {
    // nothing prepared: the run makes its own (and meets the same error there)
  }
}

/**
 * The prepared context when it belongs to `isolate`, else a new one. `isolate` is live:
 * `isolateFor` just returned it. A context prepared in another isolate went with it: `isolateFor`
 * disposes the isolate it replaces, and a disposed one is never prepared in.
 */
function freshHarness(isolate) {
  const p = prepared;
  prepared = null;
  return p && p.isolate === isolate ? p.h : harnessOf(isolate);
}

/** Set when a run could not stop its isolate: the worker must end after answering (see js-worker.cjs). */
let poisoned = false;

/** Whether this worker must end after its answer (an isolate it could not stop still runs). */
function mustExit() {
  return poisoned;
}

/**
 * `promise` (an isolate call with isolated-vm's own timeout of `timeMs`) as `{ value }` or
 * `{ error }` — whatever was thrown, `null` and `undefined` too: callers test `'error' in` the
 * answer, never its truth (a program that threw null was once reported as the sandbox's fault) —
 * or `{ hung: true }`
 * when it has not settled well after that: a single builtin call (a string flattened, an array
 * built by `split`, a collection thrashing the garbage collector) cannot be interrupted by the
 * timeout, so the per-test limit is held here: the isolate is disposed and the worker ends after
 * its answer, whatever the isolate's thread is still doing.
 */
function watched(isolate, promise, timeMs) {
  return new Promise((resolve) => {
    const dog = setTimeout(() => {
      poisoned = true;
      try {
        if (!isolate.isDisposed) isolate.dispose();
      } catch (e) {
        /* already going */
      }
      resolve({ hung: true });
    }, timeMs + Math.max(250, Math.ceil(timeMs / 2)));
    promise.then(
      (value) => {
        clearTimeout(dog);
        resolve({ value });
      },
      (error) => {
        clearTimeout(dog);
        resolve({ error });
      },
    );
  });
}

/**
 * `f()` (a synchronous isolate call: a few µs instead of a trip to the isolate's thread and
 * back) as `watched` answers: `{ value }` or `{ error }`. Nothing here can stop a builtin the
 * isolate's timeout cannot interrupt: only for a run whose watchdog is the pool's wall clock
 * (see `runTests`, `sync`).
 */
function direct(f) {
  try {
    return { value: f() };
  } catch (error) {
    return { error };
  }
}

const HUNG = (timeMs) => ({ code: 'timeout', message: `time limit of ${timeMs} ms exceeded (the program could not be interrupted; its worker was ended)` });

/**
 * Runs `req.program` against `req.tests`: a fresh context per run (the isolate is reused while
 * it is healthy), each test called with copied JSON arguments and its output copied back as
 * JSON text, every isolate call under the per-test time limit (held by a watchdog too, see
 * `watched`). Property tests are checked in another fresh context.
 *
 * `sync` (a run of one test that the pool sent alone, nothing queued behind it): the program's
 * load and its test's call are synchronous isolate calls, which leave this thread blocked while
 * they run: the isolate's timeout still ends a long program, and a builtin it cannot interrupt
 * is stopped by the pool, whose wall clock for a one-test run is its watchdog (it kills this
 * worker past it; code-runner.ts, `jsWallMs`). Runs of several tests keep the asynchronous calls
 * and the watchdog here, which can answer the tests that ran before a stuck one.
 * @param {{program: string, entry: string, tests: {input: unknown[], property?: string}[], limits: {timeMs: number, memoryMb: number, outputBytes: number}, stopOnTimeout?: boolean}} req
 * @param {boolean} [sync]
 */
async function runTests(req, sync = false) {
  const { timeMs, memoryMb, outputBytes } = req.limits;
  if (!isEntry(req.entry)) return { code: 'sandbox-error', message: `entry "${oneLine(req.entry, 60)}" is not an identifier`, outputs: [] };
  const isolate = isolateFor(memoryMb, req.program.length);
  const h = freshHarness(isolate);
  const outputs = [];
  try {
    let script;
    let joined = true;
    try {
      script = compile(isolate, withLookup(req.program, req.entry), 'program.js');
    } catch (e) {
      joined = false;
    }
    if (!joined) {
      try {
        script = compile(isolate, req.program, 'program.js');
      } catch (e) {
        return { ...compileFailure(e, isolate), outputs };
      }
    }
    const syncCalls = sync === true && req.tests.length === 1;
    const loadOptions = joined ? { timeout: timeMs, reference: true } : { timeout: timeMs };
    const loaded = syncCalls ? direct(() => script.runSync(h.context, loadOptions)) : await watched(isolate, script.run(h.context, loadOptions), timeMs);
    if (!poisoned) done(isolate, script);
    if (loaded.hung) return { ...HUNG(timeMs), outputs };
    if ('error' in loaded) return { ...classify(loaded.error, isolate, true), outputs };
    let fn = loaded.value;
    if (!joined) {
      const found = syncCalls ? direct(() => h.context.evalSync(LOOKUP(req.entry), { reference: true, timeout: timeMs })) : await watched(isolate, h.context.eval(LOOKUP(req.entry), { reference: true, timeout: timeMs }), timeMs);
      if (found.hung) return { ...HUNG(timeMs), outputs };
      if ('error' in found) return { ...classify(found.error, isolate, true), outputs };
      fn = found.value;
    }
    h.refs.push(fn);
    if (fn.typeof !== 'function') return { code: 'runtime-error', message: `the program defines no function "${req.entry}"`, outputs };
    let timedOut = false;
    // the whole run's output is bounded too (as for Python): twice the per-test limit
    let total = 0;
    const totalMax = outputBytes * 2 + 1_000_000;
    for (const t of req.tests) {
      if (timedOut && req.stopOnTimeout) {
        outputs.push({ code: 'timeout', message: 'not run: an earlier test timed out' });
        continue;
      }
      if (poisoned) {
        outputs.push({ code: 'timeout', message: 'not run: an earlier test could not be stopped' });
        continue;
      }
      if (isolate.isDisposed) {
        outputs.push({ code: 'memory-limit', message: 'the sandbox ran out of memory in an earlier test' });
        continue;
      }
      const args = [fn.derefInto(), JSON.stringify(t.input), outputBytes];
      const called = syncCalls ? direct(() => h.call.applySync(undefined, args, { timeout: timeMs })) : await watched(isolate, h.call.apply(undefined, args, { timeout: timeMs }), timeMs);
      if (called.hung) {
        timedOut = true;
        outputs.push(HUNG(timeMs));
        continue;
      }
      if ('error' in called) {
        const c = classify(called.error, isolate, true);
        if (c.code === 'timeout') timedOut = true;
        outputs.push(c);
        continue;
      }
      const text = called.value;
      if (typeof text !== 'string') {
        outputs.push({ code: 'sandbox-error', message: 'the harness returned no text' });
        continue;
      }
      if (text.startsWith(TOO_LONG)) {
        outputs.push({ code: 'output-limit', message: `output of ${text.slice(TOO_LONG.length)} characters exceeds ${outputBytes}` });
        continue;
      }
      total += text.length;
      if (total > totalMax) {
        outputs.push({ code: 'output-limit', message: `the run's outputs exceed ${totalMax} characters in all` });
        continue;
      }
      const out = { code: 'ok', text };
      if (t.property) out.property = checkProperty(t.property, text, t.input, req.limits);
      outputs.push(out);
    }
    return { code: 'ok', outputs };
  } finally {
    if (!isolate.isDisposed && !poisoned) h.release();
  }
}

let checker = null; // the isolate for property checks: never the program's, a fresh context per check

/** Runs a property check in a fresh context of the checker isolate: true or false (a throw is false). */
function checkProperty(source, outputText, input, limits) {
  if (!checker || checker.isDisposed) checker = new ivm.Isolate({ memoryLimit: 64 });
  let h = null;
  try {
    h = harnessOf(checker);
    return h.check.applySync(undefined, [source, outputText, JSON.stringify(input)], { timeout: limits.timeMs }) === true;
  } catch (e) {
    return false;
  } finally {
    if (h && !checker.isDisposed) h.release();
  }
}

/** Open kernel-lab sessions: id -> { kernels: name -> { isolate, harness, fn } }. */
const labs = new Map();

/**
 * Opens a lab: each kernel compiled in an isolate of its own (the reference and the candidate
 * can never reach each other). Answers per kernel: ok, or the code of its compile's failure
 * (`syntax-error`, see `compileFailure`) or of its load's (running it: `runtime-error`, a SyntaxError
 * it throws included, `timeout`, `memory-limit`).
 * @param {{id: string, kernels: Record<string, string>, memoryMb: number, timeMs: number}} req
 */
function labOpen(req) {
  const kernels = new Map();
  const status = {};
  for (const [name, source] of Object.entries(req.kernels)) {
    const isolate = new ivm.Isolate({ memoryLimit: req.memoryMb });
    // kernels may use WebAssembly, with every module's memory within the lab's memory limit (64 KiB pages)
    const h = harnessOf(isolate, Math.max(1, Math.floor((req.memoryMb * 1024 * 1024) / 65536)));
    let script = null;
    try {
      script = isolate.compileScriptSync('(' + source + '\n)', { filename: name + '.js' });
    } catch (e) {
      status[name] = compileFailure(e, isolate);
    }
    // loading runs the source (an IIFE's set-up): a SyntaxError it throws there (JSON.parse of bad
    // text, a RegExp) is a runtime error, as in a call and in code runs
    if (script) {
      try {
        const fn = script.runSync(h.context, { reference: true, timeout: req.timeMs });
        if (fn.typeof !== 'function') throw new TypeError('the source is not a function expression');
        kernels.set(name, { isolate, h, fn });
        status[name] = { code: 'ok' };
      } catch (e) {
        status[name] = classify(e, isolate, true);
      }
    }
    if (status[name].code !== 'ok' && !isolate.isDisposed) isolate.dispose();
  }
  labs.set(req.id, kernels);
  return { status };
}

/**
 * One lab call: stages copies of the inputs in the kernel's isolate (untimed), then times
 * kernel + output materialization with the host's monotonic clock, then (untimed) asks which
 * inputs the kernel wrote to.
 * @param {{id: string, name: string, inputs: Record<string, Float32Array|Int32Array|Uint32Array>, dims: Record<string, number>, outputs: {name: string, dtype: string, length: number}[], timeMs: number}} req
 */
function labCall(req) {
  const k = labs.get(req.id)?.get(req.name);
  if (!k) return { code: 'sandbox-error', message: `no kernel "${req.name}" in lab ${req.id}` };
  const { isolate, h, fn } = k;
  if (isolate.isDisposed) return { code: 'memory-limit', message: 'the kernel ran out of memory in an earlier call' };
  try {
    h.stage.applySync(undefined, [new ivm.ExternalCopy(req.inputs).copyInto({ release: true }), new ivm.ExternalCopy(Object.keys(req.inputs)).copyInto({ release: true })], { timeout: req.timeMs });
    const dims = new ivm.ExternalCopy(req.dims).copyInto({ release: true });
    const specs = new ivm.ExternalCopy(req.outputs).copyInto({ release: true });
    const t0 = process.hrtime.bigint();
    const res = h.run.applySync(undefined, [fn.derefInto(), dims, specs], { timeout: req.timeMs, result: { copy: true } });
    const ns = Number(process.hrtime.bigint() - t0);
    if (res.error) return { code: 'runtime-error', message: oneLine(res.error), ns };
    const modified = h.modified.applySync(undefined, [], { timeout: req.timeMs, result: { copy: true } });
    return { code: 'ok', ns, outputs: res.outputs, flags: res.flags, modified };
  } catch (e) {
    // the kernel compiled when the lab opened: whatever it throws now is a runtime error
    return classify(e, isolate, true);
  }
}

/** Closes a lab and disposes its isolates. */
function labClose(req) {
  const kernels = labs.get(req.id);
  if (kernels) for (const k of kernels.values()) if (!k.isolate.isDisposed) k.isolate.dispose();
  labs.delete(req.id);
  return { closed: true };
}

/**
 * What this worker holds for code runs now (the worker's `stats` op: diagnostics, and how the
 * tests see the cache and the isolate's recycling): `isolatesMade` and `contextsMade` so far;
 * the shared isolate's `runs`, `chars` of program source and `memoryMb`, or null; the compile
 * cache's `scripts` and `chars` (the bootstrap included); whether the next run's context is
 * `prepared`; open `labs`.
 */
function stats() {
  const live = shared && !shared.isolate.isDisposed ? shared : null;
  const cache = live ? compiled.get(live.isolate) : undefined;
  return {
    isolatesMade,
    contextsMade,
    isolate: live ? { runs: live.runs, chars: live.chars, memoryMb: live.memoryMb } : null,
    cache: { scripts: cache ? cache.scripts.size : 0, chars: cache ? cache.chars : 0 },
    prepared: prepared !== null,
    labs: labs.size,
  };
}

module.exports = { runTests, prepare, labOpen, labCall, labClose, mustExit, stats, UNDEFINED };
