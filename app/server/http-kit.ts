/**
 * The one HTTP layer of the arena's servers (the spectator API in http-api.ts and the env server
 * in env-serve/): an error with a status and the field it is about, a JSON response, a request
 * body read under a size limit, and the text a client may see of a server-side failure.
 *
 * Each server keeps its own error *body* (the API answers `{error}`, the env server FastAPI's
 * `{detail, message}`); what an error is, how a body is read and how a response is written
 * exist here once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A refused request: the HTTP `status`, the `field` it is about and a one-line `message` that starts with the field. */
export class HttpError extends Error {
  readonly field: string;
  constructor(
    readonly status: number,
    field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'HttpError';
    this.field = field;
  }

  /** The problem without the leading field name. */
  get problem(): string {
    return this.message.slice(this.field.length + 2);
  }
}

/** Requests whose body was abandoned unread: their connection closes once the answer is written. */
const abandoned = new WeakSet<IncomingMessage>();

/** Writes `body` as JSON with `status` (no caching; content-length set). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  const close = abandoned.has(res.req);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)), ...(close ? { connection: 'close' } : {}), ...headers });
  if (close) res.once('finish', () => res.req.destroy());
  res.end(text);
}

/** How much of a refused body is read (and thrown away) before the connection is cut, so the client sees the 413. */
function discardLimit(limit: number): number {
  return Math.max(limit * 8, 8 << 20);
}

/**
 * The request's body as text, at most `limit` bytes. A larger body is refused with
 * HttpError 413 (`body: larger than N bytes`): the rest is read and thrown away (up to a bound),
 * so the client gets the answer instead of a reset connection; past that bound, or when the
 * declared content-length is already past it, the connection is closed after the answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, 'body', `larger than ${limit} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > discardLimit(limit)) {
    req.pause();
    closeAfterResponse(req);
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        if (size > discardLimit(limit)) {
          req.pause();
          req.removeAllListeners('data');
          closeAfterResponse(req);
          reject(tooLarge());
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** Marks the connection to close once the answer ({@link sendJson}) is written: the rest of the body is not read. */
function closeAfterResponse(req: IncomingMessage): void {
  abandoned.add(req);
}

/** How deep a client's JSON may nest (validators recurse: deeper input would overflow the stack). */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `max` levels (checked without recursion). */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, d + 1]);
  }
  return false;
}

/**
 * The request's body parsed as JSON (`undefined` when it is empty); 413 past `limit`, 400
 * when it does not parse (`body: not valid JSON`) or nests deeper than {@link MAX_JSON_DEPTH}.
 */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readBody(req, limit);
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'body', 'not valid JSON');
  }
  if (nestedDeeperThan(value)) throw new HttpError(400, 'body', `nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}

const PATH = /(?<=^|[\s'"`(=[])(?:file:\/\/)?(?:[A-Za-z]:\\|\/)[^\s'"`()<>,;]+/g;

/**
 * What a client may see of an error raised inside the server (an agent that failed to load,
 * a bug): its first line, with every absolute path replaced by `<path>` and cut to 300
 * characters — never a stack, a `Require stack`, a file's contents or where the server keeps
 * its files.
 */
export function publicMessage(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  const line = raw.split('\n')[0].replace(PATH, '<path>');
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * The answer to an unexpected failure: a fixed text for the client, the details on the
 * server's stderr (where its operator reads them).
 */
export function internalError(where: string, e: unknown): string {
  process.stderr.write(`arena: ${where}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return 'server error (the server logged the details)';
}
