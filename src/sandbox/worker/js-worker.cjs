// @ts-check
'use strict';
/**
 * Entry of a sandbox worker process (forked by src/sandbox/pool.ts with --no-node-snapshot and
 * structured-clone IPC). Requests { id, op, req } arrive as objects, or as JSON text for plain
 * data (code runs); they queue here and run one at a time, in the order they came.
 *
 * A message holds one request, answered on its own as soon as it ends, in the form it came:
 * { id, ok, res } or { id, ok: false, error }. Or it holds a batch: a JSON array of requests,
 * answered by one message, the JSON array of their answers in the same order, sent when the last
 * one ends — one wake-up of the pool per batch instead of one per run. A batch's answer is
 * shorter only when its last answer says `retire: true` (see `answer`): the requests after it
 * never started, or their answers did not fit in the message with the others (answer-text.cjs),
 * and the pool sends them to a fresh worker.
 *
 * { cancel: id } cancels a request: one that has not started is skipped (answered
 * { id, ok: false, error: 'cancelled', cancelled: true }); a code run already running (the pool
 * cannot tell, inside a batch) is answered the same at once and the worker then ends (retire),
 * which stops the program. The pool sends code runs ahead (pipelining), so the next ones wait
 * here while one runs. An op may answer with a promise (code runs, the AssemblyScript
 * compiler). Op `stats` answers what the worker holds for code runs (isolate-runner.cjs, `stats`:
 * diagnostics). When the queue runs dry the next run's fresh context is prepared (runner.prepare). A crash
 * of isolated-vm ends this process only; the pool restarts it and sends the requests that never
 * started, or whose batch died unanswered, to the new one (pool.ts, `lose`).
 *
 * Started with `--sync` (the pool does so only with its opt-in `syncCalls`), a code run of one test that came alone and has nothing
 * queued behind it runs with synchronous isolate calls (runner.runTests, `sync`): this thread is
 * blocked while it runs, so nothing here could stop a builtin the isolate's timeout cannot
 * interrupt, nor hear a cancel — the pool does both for a request sent alone (it kills this
 * worker past the run's wall clock, or on a cancel), and an orphaned worker ends when the run's
 * time limit ends it. So a request starts only after the messages that came with it were read
 * (`schedule`): a cancel sent behind it skips it, and a request with others behind it keeps the
 * asynchronous calls (a cancel of a batch's running request is answered here, see below).
 */
// Optimizing compilation on the main thread: with background (concurrent) recompilation, when an
// optimized version of a kernel is installed depends on thread scheduling, and two isolates given
// the same calls could end up with different code — measured here: in 3 of 20 A/A sessions one
// copy of the softmax reference ran 4.4x slower than the other. Synchronous compilation makes
// the code a kernel gets a function of the calls it saw (bench/kernel-speedup.ts, README).
require('node:v8').setFlagsFromString('--no-concurrent-recompilation');
const runner = require('./isolate-runner.cjs');
const { compileAssemblyScript } = require('./asc-compile.cjs');
const { encode, batchText } = require('./answer-text.cjs');
const { sendObjectAnswer } = require('./object-answer.cjs');

// The pool forks this file with an IPC channel, its only way in and out: started without one
// (by hand, from a shell) it says so and ends, rather than running with nowhere to answer.
if (!process.send) {
  process.stderr.write('js-worker.cjs: no IPC channel (the sandbox pool forks this file with one); exiting\n');
  process.exit(2);
}
const send = process.send.bind(process);

const OPS = {
  tests: runner.runTests,
  'lab.open': runner.labOpen,
  'lab.call': runner.labCall,
  'lab.close': runner.labClose,
  'asc.compile': compileAssemblyScript,
  stats: runner.stats,
};

/**
 * What one message brought: its requests' answers are sent together when the last is in
 * (`batch`), or each on its own.
 * @typedef {{ json: boolean, batch: boolean, size: number, answers: object[] }} Unit
 */
/** @type {{ id: unknown, op: unknown, req: unknown, unit: Unit }[]} requests waiting, in arrival order */
const queue = [];
/** Ids the pool cancelled before they started. */
const cancelled = new Set();
/** @type {{ id: unknown, op: unknown, unit: Unit, settle: (m: object) => void } | null} the request running now */
let current = null;
/** A running code run was cancelled: the worker ends after its answer (the program cannot be stopped otherwise). */
let cancelledRunning = false;
/** An answer with `retire` went out: nothing more runs here. */
let retired = false;
/** Started with `--sync`: a lone one-test code run with nothing behind it makes synchronous isolate calls. */
const SYNC = process.argv.includes('--sync');

/**
 * Runs the queue once the messages already received were read: with `--sync` a run may block
 * this thread, so it starts in the event loop's check phase, after the poll phase that read the
 * messages that came with it (a cancel sent behind a request, the requests queued behind it;
 * an immediate set while immediates run waits for the next loop, after its poll). Without
 * `--sync` at once. Several immediates may be pending (one per message of a poll phase): the
 * first starts a request, the others find it running (`current`) or the queue empty.
 */
function schedule() {
  if (SYNC) setImmediate(next);
  else next();
}

/**
 * Records a request's answer and sends what its message is owed: a single request's answer at
 * once (an answer held back while later runs go on would be lost with them if one of them ended
 * this process), a batch's answers when its last is in. When a run left an isolate it could not
 * stop (runner.mustExit()), or a running code run was cancelled, the worker ends once the answer
 * is out, running nothing more — a batch is answered up to this request, its last answer marked
 * `retire` — the pool starts a fresh worker, and nothing the stuck isolate still does can reach
 * a later run. So does a batch too long for one message, answered in part (answer-text.cjs,
 * `batchText`). Returns whether the worker goes on.
 */
function answer(/** @type {Unit} */ unit, /** @type {{ id?: unknown }} */ m) {
  const mustEnd = runner.mustExit() || cancelledRunning;
  unit.answers.push(mustEnd ? { ...m, retire: true } : m);
  if (!mustEnd && unit.answers.length < unit.size) return true;
  // a batch too long for one message is answered in part, and the worker ends (answer-text.cjs)
  const batch = unit.batch ? batchText(unit.answers) : null;
  const retire = mustEnd || batch?.cut === true;
  // an answer that cannot go out (the pool went away while a synchronous run held this thread:
  // EPIPE before the disconnect is read) ends the worker as the disconnect would
  const after = (/** @type {Error | null} */ err) => {
    if (retire) process.kill(process.pid, 'SIGKILL');
    else if (err) process.exit(0);
  };
  if (retire) retired = true;
  if (batch) send(batch.text, after);
  else if (unit.json) send(encode(unit.answers[0]), after);
  else sendObjectAnswer(send, unit.answers[0], after);
  return !retire;
}

/** Runs the queued requests one at a time; prepares the next code run's context when the queue runs dry. */
function next() {
  while (!current && !retired && queue.length) {
    const { id, op, req, unit } = /** @type {typeof queue[number]} */ (queue.shift());
    if (cancelled.delete(id)) {
      if (!answer(unit, { id, ok: false, error: 'cancelled', cancelled: true })) return;
      continue;
    }
    let done = false;
    const settle = (/** @type {object} */ m) => {
      // a run cancelled while running was answered already; its own end comes too late
      if (done) return;
      done = true;
      current = null;
      if (!answer(unit, m)) return;
      // with nothing queued, the next code run's context is made now (prepare: nothing before a code run's isolate exists)
      if (queue.length) schedule();
      else runner.prepare();
    };
    current = { id, op, unit, settle };
    try {
      const f = OPS[/** @type {keyof typeof OPS} */ (op)];
      if (!f) throw new Error(`unknown op "${String(op)}"`);
      // synchronous isolate calls only where the pool is the watchdog: a code run that came alone (a
      // message that is not a batch holds one request), nothing behind it; only code runs, which the
      // pool's wall clock watches (the other ops take no flag today, and must not get one by accident)
      const sync = SYNC && op === 'tests' && !unit.batch && queue.length === 0;
      const res = f(/** @type {never} */ (req), /** @type {never} */ (sync));
      if (res && typeof res.then === 'function') {
        res.then(
          (v) => settle({ id, ok: true, res: v }),
          (e) => settle({ id, ok: false, error: e instanceof Error ? e.message : String(e) }),
        );
      } else settle({ id, ok: true, res });
    } catch (e) {
      settle({ id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
}

process.on('message', (raw) => {
  const json = typeof raw === 'string';
  let msg;
  try {
    msg = json ? JSON.parse(raw) : raw;
  } catch (e) {
    msg = null;
  }
  if (msg && typeof msg.cancel === 'number') {
    if (queue.some((q) => q.id === msg.cancel)) cancelled.add(msg.cancel);
    else if (current && current.id === msg.cancel && current.op === 'tests') {
      // running (inside a batch the pool cannot know): answered now, and the worker ends with it
      cancelledRunning = true;
      current.settle({ id: msg.cancel, ok: false, error: 'cancelled', cancelled: true });
    }
    // a cancel for a request already answered is dropped (so is its answer, by the pool)
    return;
  }
  // a JSON array is a batch, answered as one
  const batch = json && Array.isArray(msg);
  const reqs = batch ? msg : [msg];
  if (!reqs.length) return;
  /** @type {Unit} */
  const unit = { json, batch, size: reqs.length, answers: [] };
  for (const one of reqs) queue.push({ id: one?.id, op: one?.op, req: one?.req, unit });
  schedule();
});
process.on('disconnect', () => process.exit(0));
