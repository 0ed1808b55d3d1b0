// @ts-check
/** The page's connection to the server: typed JSON GETs and POSTs and one shared socket.io connection. */

/** @typedef {import('socket.io-client').Socket} Socket */

/**
 * GET /api/...; throws an Error carrying the server's message on a non-2xx answer. `T` is the
 * answer's type from app/server/api-types.ts.
 * @template T
 * @param {string} path
 * @returns {Promise<T>}
 */
export async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  /** @type {unknown} */
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = body && typeof body === 'object' && 'error' in body ? String(body.error) : '';
    throw new Error(error || `${res.status} ${res.statusText}`);
  }
  return /** @type {T} */ (body);
}

/**
 * POST /api/... with a JSON body; throws an Error carrying the server's one-line message on a
 * non-2xx answer. `T` is the answer's type from app/server/api-types.ts.
 * @template T
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<T>}
 */
export async function postJson(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** @type {unknown} */
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = answer && typeof answer === 'object' && 'error' in answer ? String(answer.error) : '';
    throw new Error(error || `${res.status} ${res.statusText}`);
  }
  return /** @type {T} */ (answer);
}

/** @type {Socket | null} */
let socket = null;

/** The shared socket (created on first use; socket.io's client is loaded by index.html). */
export function getSocket() {
  if (socket) return socket;
  const s = window.io({ transports: ['websocket', 'polling'] });
  socket = s;
  const conn = document.getElementById('conn');
  /** @param {string} text @param {string} cls */
  const show = (text, cls) => {
    if (!conn) return;
    conn.textContent = text;
    conn.className = `conn ${cls}`;
  };
  s.on('connect', () => show('live', 'ok'));
  s.on('disconnect', () => show('offline', 'bad'));
  s.on('connect_error', () => show('offline', 'bad'));
  s.on('error', (/** @type {unknown} */ e) => console.warn('server error', e));
  return s;
}

/**
 * Emits with an acknowledgement; resolves with the reply (or rejects on timeout). `T` is the
 * reply's type from app/server/protocol.ts.
 * @template T
 * @param {string} name
 * @param {unknown} payload
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
export function request(name, payload, timeoutMs = 8000) {
  return getSocket().timeout(timeoutMs).emitWithAck(name, payload);
}
