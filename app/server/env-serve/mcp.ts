/**
 * OpenEnv's `/mcp` route (JSON-RPC 2.0; upstream's http_server.py `POST /mcp` and the WebSocket
 * `{"type": "mcp"}` message) answered honestly: an arena env has no MCP tools, so `tools/list`
 * returns an empty list and every other method is "method not found" with a line saying how to
 * play instead. Malformed requests get JSON-RPC's own error codes, always with HTTP 200 (as
 * upstream answers them), so `openenv validate --url` sees a JSON-RPC payload.
 */
import type { JsonObject, JsonValue } from '../../../src/core/json';

/** JSON-RPC 2.0 error codes used here. */
export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;

/** A JSON-RPC 2.0 response. */
export interface RpcResponse extends JsonObject {
  jsonrpc: '2.0';
  id: string | number | null;
}

function error(id: string | number | null, code: number, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

const REQUEST_KEYS = ['jsonrpc', 'method', 'params', 'id'];

/** The answer to a JSON-RPC request (already parsed from JSON); `null` raw means the text did not parse. */
export function mcpAnswer(raw: unknown, parsed = true): RpcResponse {
  if (!parsed) return error(null, RPC_PARSE_ERROR, 'Parse error: the body is not JSON');
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return error(null, RPC_INVALID_REQUEST, 'Invalid request: expected a JSON-RPC 2.0 object {"jsonrpc": "2.0", "method": ..., "id": ...}');
  const r = raw as Record<string, unknown>;
  const idRaw = Object.hasOwn(r, 'id') ? r.id : null;
  const id = typeof idRaw === 'string' || typeof idRaw === 'number' ? idRaw : null;
  const extra = Object.keys(r).find((k) => !REQUEST_KEYS.includes(k));
  if (extra !== undefined) return error(id, RPC_INVALID_REQUEST, `Invalid request: unknown key "${extra.slice(0, 40)}"`);
  if (r.jsonrpc !== '2.0') return error(id, RPC_INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"');
  if (typeof r.method !== 'string') return error(id, RPC_INVALID_REQUEST, 'Invalid request: "method" must be a string');
  if (Object.hasOwn(r, 'params') && (r.params === null || typeof r.params !== 'object' || Array.isArray(r.params))) return error(id, RPC_INVALID_PARAMS, 'Params must be an object');
  if (r.method === 'tools/list') return { jsonrpc: '2.0', id, result: { tools: [] as JsonValue[] } };
  return error(id, RPC_METHOD_NOT_FOUND, `Method not found: ${JSON.stringify(r.method.slice(0, 60))}: this env server offers no MCP tools; play with POST /reset and /step, or the WebSocket /ws`);
}
