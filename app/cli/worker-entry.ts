/**
 * The CLI's worker thread (started by app/cli/supervisor.ts): installs the heartbeat the
 * supervisor watches, takes signals relayed by it, and runs the command line. The exit code is
 * the worker's exit code. Modules the command loads resolve `selfplay-arena` to this package.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installHeartbeat } from '../../src/core/heartbeat';
import { runCli } from './main';
import { relayStopsFrom } from './stop-signal';
import { installSelfResolve } from './self-resolve';
import type { WorkerInput } from './supervisor';

const input = workerData as WorkerInput;
installHeartbeat(input.heartbeat);
installSelfResolve();
if (parentPort) relayStopsFrom(parentPort);
if (input.stderrTTY) {
  Object.defineProperty(process.stderr, 'isTTY', { value: true });
  if (input.columns) Object.defineProperty(process.stderr, 'columns', { value: input.columns });
}
void runCli(input.argv).then((code) => {
  process.exitCode = code;
});
