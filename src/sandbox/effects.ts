/** The sandbox's effect handlers: what envs that run code get when they ask. */
import type { EffectHandler } from '../core/effects';
import type { JsonValue } from '../core/json';
import type { CodeRunRequest, CodeRunResult, CodeRunner } from '../core/sandbox';

/**
 * Handler of `code-runs`: every requested run on the pool (concurrently, as slots allow), the
 * results in request order. A malformed request gives sandbox-error results, never a throw.
 */
export function codeRunsHandler(runner: CodeRunner): EffectHandler {
  return async (request, ctx) => {
    const runs = (request as { runs?: unknown } | null)?.runs;
    if (!Array.isArray(runs)) throw new Error('code-runs: the request has no "runs" list');
    const results: CodeRunResult[] = await Promise.all(runs.map((r) => runner.run(r as CodeRunRequest, ctx.signal)));
    return { runs: results } as unknown as JsonValue;
  };
}
