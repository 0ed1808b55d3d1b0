/** The page's connection to the server: JSON GETs and one shared socket.io connection. */
import { io } from '/socket.io/socket.io.esm.min.js';

/** GET /api/...; throws an Error carrying the server's message on a non-2xx answer. */
export async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
  return body;
}

let socket = null;

/** The shared socket (created on first use). */
export function getSocket() {
  if (socket) return socket;
  socket = io({ transports: ['websocket', 'polling'] });
  const conn = document.getElementById('conn');
  const show = (text, cls) => {
    if (!conn) return;
    conn.textContent = text;
    conn.className = `conn ${cls}`;
  };
  socket.on('connect', () => show('live', 'ok'));
  socket.on('disconnect', () => show('offline', 'bad'));
  socket.on('connect_error', () => show('offline', 'bad'));
  socket.on('error', (e) => console.warn('server error', e));
  return socket;
}

/** Emits with an acknowledgement; resolves with the reply (or rejects on timeout). */
export function request(name, payload, timeoutMs = 8000) {
  return getSocket().timeout(timeoutMs).emitWithAck(name, payload);
}
