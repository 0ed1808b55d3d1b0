/**
 * The update worker of a trainer: a worker_thread running fused updates (update-worker.ts) while
 * the trainer's own thread plays the next iteration's episodes — the machine's second core.
 * Started on first use; requests are answered in order; a failed update rejects its promise
 * with the worker's message; a worker that dies rejects everything pending and is restarted by
 * the next request. Idle, it does not keep the process alive.
 *
 * The worker runs the compiled update-worker.js next to this file; run from TypeScript sources
 * (the tests), it loads update-worker.ts through TypeScript's transpiler.
 */
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { transferables, type UpdateReply, type UpdateRequest, type UpdateResult } from './update-protocol';

/** The worker's bootstrap: loads the entry, compiling TypeScript on the fly when it is a .ts file. */
const BOOT = `
const { workerData } = require('node:worker_threads');
if (workerData.entry.endsWith('.ts')) {
  const ts = require('typescript');
  const fs = require('node:fs');
  require.extensions['.ts'] = (m, file) => m._compile(ts.transpileModule(fs.readFileSync(file, 'utf8'), { fileName: file, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText, file);
}
require(workerData.entry);
`;

interface Waiting {
  resolve(r: UpdateResult): void;
  reject(e: Error): void;
}

/** A worker thread for learner updates. */
export class UpdateWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  private start(): Worker {
    const entry = join(__dirname, `update-worker${extname(__filename)}`);
    if (!existsSync(entry)) throw new Error(`update worker: ${entry} is missing (npm run build)`);
    const w = new Worker(BOOT, { eval: true, workerData: { entry } });
    w.on('message', (r: UpdateReply) => {
      const waiter = this.waiting.get(r.id);
      if (!waiter) return;
      this.waiting.delete(r.id);
      if (this.waiting.size === 0) w.unref();
      if (r.ok) waiter.resolve(r.result);
      else waiter.reject(new Error(r.error));
    });
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(e);
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`update worker stopped (exit code ${code})`)));
    return w;
  }

  /** Runs `q` in the worker (its arrays are transferred: the caller must not use them again). */
  run(q: Omit<UpdateRequest, 'id'>): Promise<UpdateResult> {
    const w = (this.worker ??= this.start());
    const id = this.nextId++;
    const request: UpdateRequest = { ...q, id };
    return new Promise<UpdateResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.ref();
      w.postMessage(request, transferables(request));
    });
  }

  /** Stops the worker (pending updates reject). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
