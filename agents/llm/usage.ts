/**
 * Token, latency and cost accounting of one LLM agent over one episode: what `report()` gives
 * the runner (and so the play summary and the league's match records).
 */
import type { AgentReport } from '../../src/core/agent';

/** Counters of one episode. */
export class Usage {
  decisions = 0;
  /** Chat completions that returned an answer. */
  requests = 0;
  /** HTTP attempts that failed and were retried or given up (429, 5xx, timeouts). */
  httpErrors = 0;
  /** Answers that were illegal or unparsable (each followed by a re-ask or a fault). */
  invalid = 0;
  reasks = 0;
  promptTokens = 0;
  completionTokens = 0;
  /** Summed time of the successful HTTP attempts. */
  latencyMs = 0;
  maxLatencyMs = 0;
  /** Summed time waiting for a concurrency slot of the endpoint. */
  queuedMs = 0;

  constructor(private readonly price?: { input: number; output: number }) {}

  /** USD for the tokens so far, or null without a price. */
  get costUsd(): number | null {
    return this.price ? (this.promptTokens * this.price.input + this.completionTokens * this.price.output) / 1e6 : null;
  }

  report(model: { endpoint: string; model: string }): AgentReport {
    const cost = this.costUsd;
    return {
      kind: 'llm',
      endpoint: model.endpoint,
      model: model.model,
      decisions: this.decisions,
      requests: this.requests,
      httpErrors: this.httpErrors,
      invalid: this.invalid,
      reasks: this.reasks,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      latencyMs: this.latencyMs,
      maxLatencyMs: this.maxLatencyMs,
      queuedMs: this.queuedMs,
      ...(cost !== null ? { costUsd: Number(cost.toFixed(6)) } : {}),
    };
  }
}
