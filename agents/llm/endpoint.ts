/**
 * One OpenAI-compatible endpoint as the LLM agents of a process share it: a concurrency limit
 * per base URL, retries with exponential back-off (and the server's Retry-After) on 429, 5xx and
 * connection errors, every HTTP attempt timed, and the decision's AbortSignal and deadline
 * honoured throughout (waiting for a slot, waiting out a back-off, the request itself).
 */
import OpenAI from 'openai';

/** A counting semaphore whose waits can be aborted. */
export class Limiter {
  private active = 0;
  private readonly queue: { resolve: () => void; reject: (e: unknown) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(public max: number) {}

  /** Requests in flight and waiting (for tests and metrics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.queue.length };
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry: (typeof this.queue)[number] = { resolve, reject, signal };
      if (signal) {
        entry.onAbort = () => {
          const i = this.queue.indexOf(entry);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortError(signal));
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
    });
  }

  release(): void {
    const next = this.queue.shift();
    if (next) {
      if (next.onAbort) next.signal!.removeEventListener('abort', next.onAbort);
      next.resolve(); // the slot passes on: active stays the same
    } else this.active--;
  }
}

const limiters = new Map<string, Limiter>();

/** The process-wide limiter of a base URL; the smallest `max` any agent asked for wins. */
export function limiterFor(baseURL: string, max: number): Limiter {
  const key = baseURL.replace(/\/+$/, '');
  let l = limiters.get(key);
  if (!l) limiters.set(key, (l = new Limiter(max)));
  else if (max < l.max) l.max = max;
  return l;
}

function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error('aborted');
}

/** Sleeps `ms`, or rejects when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry settings of one request. */
export interface RetryPolicy {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
}

/** One HTTP attempt, as recorded. */
export interface HttpAttempt {
  status: number | null;
  ms: number;
  error?: string;
}

/** What a completed request gives back. */
export interface Completion {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** Time of the successful HTTP attempt. */
  ms: number;
  /** Every HTTP attempt, the failed ones first. */
  attempts: HttpAttempt[];
  /** Time spent waiting for a concurrency slot. */
  queuedMs: number;
}

/** A request that failed for good (non-retryable status, retries spent, deadline); `attempts` says what happened. */
export class CompletionError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly attempts: HttpAttempt[],
  ) {
    super(message);
    this.name = 'CompletionError';
  }
}

/** Time limit of one HTTP attempt when neither the options nor the decision's deadline set a shorter one (10 minutes). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** True for statuses worth retrying: rate limits, timeouts and server errors. */
export function retryable(status: number | null): boolean {
  return status === null || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait before retry `k` (0-based): the server's Retry-After when it gives one, else exponential with jitter. */
export function backoffDelay(k: number, policy: RetryPolicy, headers: Headers | undefined, random: () => number): number {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers?.get('retry-after-ms') !== null) return Math.min(ms, policy.maxBackoffMs);
  const s = headers?.get('retry-after');
  if (s !== null && s !== undefined && Number.isFinite(Number(s))) return Math.min(Number(s) * 1000, policy.maxBackoffMs);
  const base = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** k);
  return base / 2 + (base / 2) * random();
}

/** Chat completions against one endpoint with the shared limiter and the retry policy. */
export class Endpoint {
  readonly client: OpenAI;
  private readonly limiter: Limiter;

  constructor(
    readonly baseURL: string,
    apiKey: string,
    concurrency: number,
    private readonly policy: RetryPolicy,
    private readonly random: () => number = Math.random,
  ) {
    this.client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
    this.limiter = limiterFor(baseURL, concurrency);
  }

  /**
   * One chat completion. Waits for a slot, then tries up to 1 + retries times; each attempt's
   * time limit is the smaller of `requestTimeoutMs` (default {@link DEFAULT_REQUEST_TIMEOUT_MS}) and what is left
   * before `deadline` (Infinity: none). Throws
   * a CompletionError (status, attempts) or the signal's abort reason.
   */
  async complete(body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, o: { signal?: AbortSignal; deadline: number; requestTimeoutMs?: number }): Promise<Completion> {
    const attempts: HttpAttempt[] = [];
    const queued = Date.now();
    await this.limiter.acquire(o.signal);
    const queuedMs = Date.now() - queued;
    try {
      for (let k = 0; ; k++) {
        const left = o.deadline - Date.now();
        if (left <= 0) throw new CompletionError('the decision deadline passed before an answer came', null, attempts);
        // an integer number of ms, also without a deadline (env-serve's seats have none): the HTTP client takes no Infinity
        const timeout = Math.ceil(Math.max(1, Math.min(left, o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)));
        const started = Date.now();
        try {
          const res = await this.client.chat.completions.create(body, { signal: o.signal, timeout, maxRetries: 0 });
          const ms = Date.now() - started;
          attempts.push({ status: 200, ms });
          const text = res.choices?.[0]?.message?.content ?? '';
          return { text, promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0, ms, attempts, queuedMs };
        } catch (e) {
          if (o.signal?.aborted) throw abortError(o.signal);
          const status = e instanceof OpenAI.APIError && typeof e.status === 'number' ? e.status : null;
          const message = describeError(e);
          attempts.push({ status, ms: Date.now() - started, error: message });
          if (!retryable(status)) throw new CompletionError(`HTTP ${status}: ${message}`, status, attempts);
          if (k >= this.policy.retries) throw new CompletionError(`${status === null ? message : `HTTP ${status}: ${message}`} (after ${k + 1} attempts)`, status, attempts);
          const wait = backoffDelay(k, this.policy, e instanceof OpenAI.APIError ? (e.headers as Headers | undefined) : undefined, this.random);
          if (Date.now() + wait >= o.deadline) throw new CompletionError(`${status === null ? message : `HTTP ${status}`}; no time left before the deadline to retry`, status, attempts);
          await sleep(wait, o.signal);
        }
      }
    } finally {
      this.limiter.release();
    }
  }
}

/** One line for an error from the client (never the request headers, so never the key). */
export function describeError(e: unknown): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return 'request timed out';
  if (e instanceof OpenAI.APIConnectionError) return `connection error (${(e.cause as Error | undefined)?.message ?? e.message})`;
  if (e instanceof OpenAI.APIError) return e.message.replace(/\s+/g, ' ').slice(0, 300);
  return e instanceof Error ? e.message : String(e);
}
