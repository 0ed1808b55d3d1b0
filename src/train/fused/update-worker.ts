/**
 * The update worker's thread (started by update-pool.ts): runs learners' fused updates on
 * requests from the trainer, one at a time, each learner in a module instance of its own kept
 * between requests (its weights and Adam state are set from the request every time, so the
 * worker holds no state the trainer does not have). Errors are answered, never thrown.
 */
import { parentPort } from 'node:worker_threads';
import { FusedNet } from './fused-net';
import { fusedUpdate } from './fused-update';
import { transferables, type UpdateReply, type UpdateRequest } from './update-protocol';

const nets = new Map<string, FusedNet>();

function run(q: UpdateRequest): UpdateReply {
  try {
    const weights = { spec: q.spec, params: q.weights };
    let net = nets.get(q.learner);
    if (!net || JSON.stringify(net.spec) !== JSON.stringify(q.spec)) nets.set(q.learner, (net = new FusedNet(weights, { training: true, rows: q.options.minibatchSize })));
    else net.setWeights(weights);
    net.setMoments(q.m, q.v);
    const counter = { step: q.step };
    const samples = { size: q.n, inputs: q.inputs, masks: q.masks, actions: q.actions, logp: q.logp };
    const stats = fusedUpdate(net, q.adam, counter, samples, { advantages: q.advantages, returns: q.returns }, q.options);
    const { m, v } = net.readMoments();
    return { id: q.id, ok: true, result: { weights: net.readWeights().params, m, v, step: counter.step, stats } };
  } catch (e) {
    return { id: q.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

parentPort?.on('message', (q: UpdateRequest) => {
  const reply = run(q);
  parentPort!.postMessage(reply, reply.ok ? transferables(reply.result) : []);
});
