/**
 * An agent backed by an OpenAI-compatible chat endpoint. It keeps one conversation per episode
 * (system prompt from the env's template, then one user message per decision: the observation
 * and the answer format), asks for structured output where the server supports it, parses every
 * completion strictly, checks the action with the env (`ctx.validate`) and re-asks with the
 * env's reason up to `reasks` times; whatever it then answers goes to the runner, whose fault
 * policy applies. Every attempt is recorded with `ctx.note` (an `agent` event private to the
 * seat), and the episode's tokens, latency and cost are its `report()`.
 */
import type OpenAI from 'openai';
import type { Agent, AgentContext, AgentReport } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { JsonObject } from '../../src/core/json';
import { systemPrompt, type PromptContext, type PromptOverrides } from '../../src/core/prompt';
import { isStrictSchema, parseAnswer, type AnswerFormat } from '../../src/core/answer-format';
import type { ChatDecisionRecord } from '../../src/core/chat-records';
import { decisionPrompt } from '../../src/core/transcript';
import { CompletionError, Endpoint, type Completion } from './endpoint';
import type { LlmOptions } from './options';
import { Usage } from './usage';

type Message = OpenAI.Chat.ChatCompletionMessageParam;
type Structured = 'json_schema' | 'json_object' | 'none';

/** What the agent saw and answered at one decision: the core's record of a talking agent. */
export type LlmDecisionRecord = ChatDecisionRecord;

/** Structured-output support learned per endpoint and model (auto mode falls back once refused). */
const support = new Map<string, Structured>();

const MAX_NOTE_TEXT = 4000;
const REASK = 'Your answer was not accepted:';

/** The LLM agent (see the module comment). One instance may play many episodes, one at a time. */
export class LlmAgent implements Agent {
  readonly name: string;
  private readonly endpoint: Endpoint;
  private history: Message[] = [];
  private system: Message | null = null;
  private usage: Usage;
  private pctx: PromptContext | null = null;
  /** Per-decision records of the current episode (for rollouts). */
  records: LlmDecisionRecord[] = [];

  constructor(
    private readonly env: Env,
    private readonly o: LlmOptions,
    apiKey: string,
    private readonly overrides?: PromptOverrides,
  ) {
    this.name = o.name ?? `llm:${o.model}`;
    this.endpoint = new Endpoint(o.baseURL, apiKey, o.concurrency, { retries: o.retries, backoffMs: o.backoffMs, maxBackoffMs: o.maxBackoffMs });
    this.usage = new Usage(o.price);
  }

  /** The model snapshot that plays: endpoint + model name. */
  get snapshot(): { endpoint: string; model: string } {
    return { endpoint: this.o.baseURL, model: this.o.model };
  }

  start(ctx: AgentContext): void {
    this.history = [];
    this.records = [];
    this.usage = new Usage(this.o.price);
    const seats = this.env.seats(this.env.init(ctx.params, 0)).length;
    this.pctx = { env: this.env.meta.id, role: ctx.role, team: ctx.team, seat: ctx.seat, seats, params: ctx.params };
    this.system = { role: 'system', content: systemPrompt(this.env, this.pctx, this.overrides) };
  }

  report(): AgentReport {
    return this.usage.report(this.snapshot);
  }

  async act(obs: unknown, legal: readonly unknown[] | null, ctx: AgentContext): Promise<unknown> {
    const signal = ctx.signal;
    if (!this.system || !this.pctx || this.pctx.seat !== ctx.seat) this.start(ctx);
    const { user, format } = decisionPrompt(this.env, obs, legal, this.pctx!, this.overrides);
    const turn: Message[] = [{ role: 'user', content: user }];
    this.usage.decisions++;
    let last: LlmDecisionRecord | null = null;
    for (let attempt = 0; attempt <= this.o.reasks; attempt++) {
      const messages = [this.system!, ...this.window(), ...turn];
      let completion: Completion;
      try {
        completion = await this.request(messages, format, ctx);
      } catch (e) {
        if (!signal.aborted) {
          const attempts = e instanceof CompletionError ? e.attempts : [];
          this.usage.httpErrors += attempts.filter((a) => a.status !== 200).length;
          ctx.note?.('llm.attempt', { attempt, ok: false, error: (e as Error).message, http: attempts as unknown as JsonObject[] });
        }
        throw e;
      }
      if (signal.aborted) throw new Error('decision aborted');
      this.account(completion);
      const parsed = parseAnswer(this.env, obs, format, completion.text);
      const verdict = parsed.ok ? (ctx.validate?.(parsed.action) ?? { ok: true as const }) : { ok: false as const, reason: parsed.reason };
      const note: JsonObject = {
        attempt,
        ok: verdict.ok,
        completion: completion.text.slice(0, MAX_NOTE_TEXT),
        promptTokens: completion.promptTokens,
        completionTokens: completion.completionTokens,
        latencyMs: completion.ms,
        ...(completion.attempts.length > 1 ? { httpRetries: completion.attempts.length - 1 } : {}),
        ...(verdict.ok ? {} : { reason: verdict.reason }),
      };
      ctx.note?.('llm.attempt', note);
      last = { step: ctx.step, seat: ctx.seat, messages: messages.map(plain), completion: completion.text, action: parsed.ok ? parsed.action : undefined, attempts: attempt + 1, ok: verdict.ok };
      if (verdict.ok) break;
      this.usage.invalid++;
      if (attempt < this.o.reasks) {
        this.usage.reasks++;
        turn.push({ role: 'assistant', content: completion.text });
        turn.push({ role: 'user', content: `${REASK} ${verdict.reason}. Answer again, exactly in the format asked: ${format.labels ? '{"action": "<one legal action name>"}' : '{"action": <your answer>}'}.` });
      }
    }
    // One record per step: a retry by the runner's fault policy replaces the earlier one.
    this.records = this.records.filter((r) => r.step !== ctx.step);
    this.records.push(last!);
    this.history.push(...turn, { role: 'assistant', content: last!.completion });
    // Without a valid answer after the re-asks the runner gets what there is; its fault policy decides.
    if (last!.ok || last!.action !== undefined) return last!.action;
    throw new Error(`no valid answer after ${this.o.reasks + 1} attempts (last: ${JSON.stringify(last!.completion.slice(0, 120))})`);
  }

  /** The kept history: the last `history` decisions (each a user message, maybe re-asks, and the answer). */
  private window(): Message[] {
    if (this.o.history === undefined) return this.history;
    if (this.o.history === 0) return [];
    let users = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const m = this.history[i];
      if (m.role === 'user' && typeof m.content === 'string' && !m.content.startsWith(REASK) && ++users === this.o.history) return this.history.slice(i);
    }
    return this.history;
  }

  private account(c: Completion): void {
    this.usage.requests++;
    this.usage.httpErrors += c.attempts.length - 1;
    this.usage.promptTokens += c.promptTokens;
    this.usage.completionTokens += c.completionTokens;
    this.usage.latencyMs += c.ms;
    this.usage.queuedMs += c.queuedMs;
    if (c.ms > this.usage.maxLatencyMs) this.usage.maxLatencyMs = c.ms;
  }

  /** One completion, with structured output as supported (auto mode steps down once a server refuses a mode). */
  private async request(messages: Message[], format: AnswerFormat, ctx: AgentContext): Promise<Completion> {
    const key = `${this.o.baseURL}|${this.o.model}`;
    for (;;) {
      const mode: Structured = this.o.structured === 'auto' ? (support.get(key) ?? 'json_schema') : this.o.structured;
      const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
        ...(this.o.extraBody as object | undefined),
        model: this.o.model,
        messages,
        ...(this.o.temperature !== undefined ? { temperature: this.o.temperature } : {}),
        ...(this.o.topP !== undefined ? { top_p: this.o.topP } : {}),
        ...(this.o.maxTokens !== undefined ? { max_tokens: this.o.maxTokens } : {}),
        ...(this.o.seed ? { seed: ctx.rng.int(2 ** 31) } : {}),
        ...(mode === 'json_schema'
          ? { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: format.schema, strict: isStrictSchema(format.schema) } } }
          : mode === 'json_object'
            ? { response_format: { type: 'json_object' } }
            : {}),
      };
      try {
        return await this.endpoint.complete(body, { signal: ctx.signal, deadline: ctx.deadline, requestTimeoutMs: this.o.requestTimeoutMs });
      } catch (e) {
        // auto: a 400 that names the response format means the server lacks the mode; step down and ask again.
        if (this.o.structured === 'auto' && mode !== 'none' && e instanceof CompletionError && e.status === 400 && /response_format|json_schema|json_object|structured|grammar/i.test(e.message)) {
          support.set(key, mode === 'json_schema' ? 'json_object' : 'none');
          continue;
        }
        throw e;
      }
    }
  }
}

function plain(m: Message): { role: string; content: string } {
  return { role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) };
}

/** Forgets what auto mode learned about servers' structured output (tests). */
export function resetStructuredSupport(): void {
  support.clear();
}
