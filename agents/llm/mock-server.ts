/**
 * A local OpenAI-compatible chat server with scripted completions, for tests, benchmarks and
 * offline demos: `POST /v1/chat/completions` answers what `respond` returns (content, an HTTP
 * error, a delay), records every request, and can refuse structured output like servers that
 * lack it. `GET /v1/models` lists the model. Binds 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A chat request as the server received it. */
export interface MockRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
  temperature?: number;
  seed?: number;
  [key: string]: unknown;
}

/** What to answer one request with. */
export interface MockReply {
  /** The completion text (status 200). */
  content?: string;
  /** An HTTP error status instead (429, 500...), with `error` as its message. */
  status?: number;
  error?: string;
  /** Extra response headers (e.g. retry-after-ms). */
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Token counts to report (default: about 4 characters per token). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** Chooses the reply of request number `n` (0-based index into `requests`: clearing that list restarts the count). */
export type MockResponder = (req: MockRequest, n: number) => MockReply | Promise<MockReply>;

/** A running mock server. */
export interface MockOpenAI {
  /** Base URL for the client, ending in /v1. */
  baseURL: string;
  /** Every chat request received, in arrival order (including refused ones). */
  requests: MockRequest[];
  /** The Authorization header of each request, in the same order. */
  authorization: (string | undefined)[];
  /** Time the server spent on each answered request (ms, from the request's arrival to its answer), in order. */
  handledMs: number[];
  /** Requests being answered right now, and the most at once so far. */
  inFlight: number;
  maxInFlight: number;
  /** Replaces the responder. */
  respond: MockResponder;
  close(): Promise<void>;
}

/** The legal names of a finite decision, read from the request's JSON schema (or from the prompt's "Legal actions:" list). */
export function legalNamesOf(req: MockRequest): string[] {
  const schemaEnum = (req.response_format?.json_schema?.schema as { properties?: { action?: { enum?: string[] } } } | undefined)?.properties?.action?.enum;
  if (schemaEnum) return schemaEnum;
  const last = [...req.messages].reverse().find((m) => m.role === 'user' && m.content.includes('Legal actions:'));
  if (!last) return [];
  const block = last.content.slice(last.content.indexOf('Legal actions:')).split('\n').slice(1);
  const names: string[] = [];
  for (const line of block) {
    if (!line.startsWith('- ')) break;
    names.push(line.slice(2));
  }
  return names;
}

/** A responder that answers the first legal name of finite decisions and `open(req)` for open ones. */
export function firstLegalResponder(open: (req: MockRequest) => unknown = () => ''): MockResponder {
  return (req) => {
    const names = legalNamesOf(req);
    return { content: JSON.stringify({ action: names.length ? names[0] : open(req) }) };
  };
}

function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Starts the mock server. `supportsJsonSchema: false` answers 400 to `response_format`
 * `json_schema` (as some servers do); `supportsJsonObject: false` likewise for `json_object`.
 */
export async function startMockOpenAI(options: { respond: MockResponder; model?: string; supportsJsonSchema?: boolean; supportsJsonObject?: boolean; port?: number }): Promise<MockOpenAI> {
  const model = options.model ?? 'mock-model';
  const state: MockOpenAI = {
    baseURL: '',
    requests: [],
    authorization: [],
    handledMs: [],
    inFlight: 0,
    maxInFlight: 0,
    respond: options.respond,
    close: async () => {},
  };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(e) } });
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', owned_by: 'mock' }] });
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    const arrived = performance.now();
    let body: MockRequest;
    try {
      body = JSON.parse(await readBody(req)) as MockRequest;
    } catch {
      return sendJson(res, 400, { error: { message: 'body is not JSON' } });
    }
    state.requests.push(body);
    state.authorization.push(req.headers.authorization);
    const n = state.requests.length - 1;
    const rf = body.response_format?.type;
    if ((rf === 'json_schema' && options.supportsJsonSchema === false) || (rf === 'json_object' && options.supportsJsonObject === false)) {
      return sendJson(res, 400, { error: { message: `response_format ${rf} is not supported by this server`, type: 'invalid_request_error' } });
    }
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      const reply = await state.respond(body, n);
      if (reply.delayMs) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, reply.delayMs);
          timers.add(t);
          res.on('close', () => {
            clearTimeout(t);
            timers.delete(t);
            resolve();
          });
        });
        if (res.destroyed || res.writableEnded) return;
      }
      if (reply.status && reply.status !== 200) return sendJson(res, reply.status, { error: { message: reply.error ?? `status ${reply.status}` } }, reply.headers);
      const content = reply.content ?? '';
      const promptText = body.messages.map((m) => m.content).join('\n');
      const usage = reply.usage ?? { prompt_tokens: approxTokens(promptText), completion_tokens: approxTokens(content) };
      state.handledMs.push(performance.now() - arrived);
      sendJson(
        res,
        200,
        {
          id: `chatcmpl-mock-${n}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        },
        reply.headers,
      );
    } finally {
      state.inFlight--;
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
