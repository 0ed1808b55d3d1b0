/**
 * A minimal WebSocket server side (RFC 6455) for the env server's `/ws` route: the upgrade
 * handshake and unfragmented or fragmented text messages, ping/pong and close. No extensions,
 * no binary messages (answered with close code 1003). Written here so the env server needs no
 * dependency beyond Node.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One accepted WebSocket connection. */
export class WebSocketConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;
  onMessage: (text: string) => void = () => {};
  onClose: () => void = () => {};

  constructor(
    private readonly socket: Duplex,
    private readonly maxMessageBytes: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.finish());
    socket.on('error', () => this.finish());
  }

  /** Sends a text message. */
  send(text: string): void {
    if (this.closed) return;
    this.socket.write(frame(0x1, Buffer.from(text, 'utf8')));
  }

  /** Closes with a status code and reason. */
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    const body = Buffer.alloc(2 + Buffer.byteLength(reason));
    body.writeUInt16BE(code, 0);
    body.write(reason, 2);
    this.socket.write(frame(0x8, body));
    this.socket.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const b = this.buffer;
      if (b.length < 2) return;
      const fin = (b[0] & 0x80) !== 0;
      const opcode = b[0] & 0x0f;
      const masked = (b[1] & 0x80) !== 0;
      let len = b[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        const big = b.readBigUInt64BE(2);
        if (big > BigInt(this.maxMessageBytes)) return this.close(1009, 'message too big');
        len = Number(big);
        off = 10;
      }
      if (!masked) return this.close(1002, 'client frames must be masked');
      if (len > this.maxMessageBytes) return this.close(1009, 'message too big');
      if (b.length < off + 4 + len) return;
      const mask = b.subarray(off, off + 4);
      const payload = Buffer.from(b.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      this.buffer = b.subarray(off + 4 + len);
      if (opcode === 0x8) return this.close(1000);
      if (opcode === 0x9) {
        this.socket.write(frame(0xa, payload));
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode === 0x2) return this.close(1003, 'text messages only');
      if (opcode === 0x1 || opcode === 0x0) {
        this.fragments.push(payload);
        const size = this.fragments.reduce((n, f) => n + f.length, 0);
        if (size > this.maxMessageBytes) return this.close(1009, 'message too big');
        if (fin) {
          const text = Buffer.concat(this.fragments).toString('utf8');
          this.fragments = [];
          this.onMessage(text);
        }
        continue;
      }
      return this.close(1002, 'unknown opcode');
    }
  }
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (len < 126) head[1] = len;
  else if (len < 65536) {
    head[1] = 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Completes the upgrade handshake; null (and a 400 answer) when the request is not a valid WebSocket upgrade. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, maxMessageBytes: number): WebSocketConnection | null {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || req.headers.upgrade?.toLowerCase() !== 'websocket' || req.headers['sec-websocket-version'] !== '13') {
    socket.end('HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"not a WebSocket upgrade (version 13)"}');
    return null;
  }
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  return new WebSocketConnection(socket, maxMessageBytes);
}
