/**
 * The env server's self-description: `GET /schema` (OpenEnv's `SchemaResponse`: JSON schemas of
 * the action, the observation and the state) and `GET /openapi.json`, an OpenAPI 3.1 document of
 * every route, with `info.version` "1.0.0" — the OpenEnv HTTP API profile it implements
 * (`openenv validate --url` reads the version and the paths to decide the server's mode: /reset,
 * /step and /state present = simulation mode).
 */
import type { Env } from '../../../src/core/env';
import type { JsonObject } from '../../../src/core/json';

/** The OpenEnv HTTP API version this server implements. */
export const OPENENV_API_VERSION = '1.0.0';

const metadataField = { type: 'object', additionalProperties: true, description: "OpenEnv's action metadata (accepted, not used)" };

/** The JSON schemas of `GET /schema`. */
export function envSchemas(env: Env): { action: JsonObject; observation: JsonObject; state: JsonObject } {
  return {
    action: {
      description: 'One of: {"value": <env action>}, {"label": "<legal action name>"}, {"answer": <open answer, parsed by the env template>}; each may carry OpenEnv\'s "metadata" object',
      oneOf: [
        { type: 'object', properties: { value: {}, metadata: metadataField }, required: ['value'], additionalProperties: false },
        { type: 'object', properties: { label: { type: 'string', minLength: 1, maxLength: 1000 }, metadata: metadataField }, required: ['label'], additionalProperties: false },
        { type: 'object', properties: { answer: {}, metadata: metadataField }, required: ['answer'], additionalProperties: false },
      ],
    },
    observation: {
      type: 'object',
      properties: {
        seat: { type: 'integer' },
        role: { type: 'string' },
        step: { type: 'integer' },
        obs: { description: `${env.meta.id}'s observation of the seat (env.observe)` },
        text: { type: 'string' },
        legal: { type: ['array', 'null'], items: { type: 'object', properties: { action: {}, label: { type: 'string' } } } },
        answer_format: { type: ['object', 'null'], properties: { format: { type: 'string' }, schema: { type: 'object' } } },
      },
    },
    state: {
      type: 'object',
      properties: {
        episode_id: { type: ['string', 'null'] },
        step_count: { type: 'integer', minimum: 0 },
        session_id: { type: 'string' },
        env: { type: 'string' },
        seat: { type: 'integer' },
        role: { type: 'string' },
        seed: { type: ['integer', 'null'] },
        done: { type: 'boolean' },
        outcome: { type: 'string' },
        returns: { type: 'array', items: { type: 'number' } },
      },
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject, description: string) => ({ description, content: { 'application/json': { schema } } });
const errors = {
  '404': json(ref('Error'), 'Unknown session or route'),
  '409': json(ref('Error'), 'The episode is over, or a step of this session is in progress'),
  '413': json(ref('Error'), 'Body over the size limit'),
  '422': json(ref('HTTPValidationError'), 'A bad field (named in detail[].loc and message)'),
};
const sessionQuery = { name: 'session_id', in: 'query', required: false, description: 'The session (default: the one of the arena_session cookie that reset set)', schema: { type: 'string', format: 'uuid' } };

/** The OpenAPI 3.1 document of `GET /openapi.json`. */
export function openApiDocument(env: Env, bodyLimit: number): JsonObject {
  const s = envSchemas(env);
  return {
    openapi: '3.1.0',
    info: {
      title: `arena env-serve: ${env.meta.id}`,
      version: OPENENV_API_VERSION,
      description: `${env.meta.description ?? env.meta.id}. The OpenEnv HTTP API (simulation mode) served by selfplay-arena: one seat is the trainer's, the arena's agents play the others. Bodies up to ${bodyLimit} bytes. See docs/env-server.md.`,
    },
    paths: {
      '/reset': {
        post: {
          summary: 'Start an episode (creating a session when no session_id or cookie names one)',
          requestBody: { required: false, content: { 'application/json': { schema: ref('ResetRequest') } } },
          responses: { '200': json(ref('StepResponse'), 'The first observation'), '429': json(ref('Error'), 'Session limit reached'), ...errors },
        },
      },
      '/step': {
        post: {
          summary: "Play the trainer's action",
          requestBody: { required: true, content: { 'application/json': { schema: ref('StepRequest') } } },
          responses: { '200': json(ref('StepResponse'), 'The next observation, the reward, done'), ...errors },
        },
      },
      '/state': { get: { summary: "The session's state", parameters: [sessionQuery], responses: { '200': json(ref('State'), 'The state'), '404': errors['404'], '422': errors['422'] } } },
      '/health': { get: { summary: 'Health', responses: { '200': json({ type: 'object', properties: { status: { const: 'healthy' }, sessions: { type: 'integer' }, max_sessions: { type: 'integer' } } }, 'Healthy') } } },
      '/metadata': { get: { summary: 'Env metadata', responses: { '200': json({ type: 'object', required: ['name', 'description'], properties: { name: { type: 'string' }, description: { type: 'string' }, version: { type: 'string' } } }, 'Metadata') } } },
      '/schema': { get: { summary: 'Action, observation and state schemas', responses: { '200': json({ type: 'object', required: ['action', 'observation', 'state'] }, 'Schemas') } } },
      '/mcp': {
        post: {
          summary: 'JSON-RPC 2.0 (MCP): this server has no MCP tools (tools/list is empty; other methods: method not found)',
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '200': json({ type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' } } }, 'A JSON-RPC response') },
        },
      },
      '/sessions': { get: { summary: 'Open sessions (ids shown by their first 8 characters only)', responses: { '200': json({ type: 'object', properties: { sessions: { type: 'array', items: { type: 'object' } } } }, 'Sessions') } } },
      '/sessions/{session_id}': {
        delete: {
          summary: 'Close an HTTP session',
          parameters: [{ name: 'session_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': json({ type: 'object', properties: { closed: { const: true } } }, 'Closed'), '404': errors['404'] },
        },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1') } } },
    },
    components: {
      schemas: {
        ResetRequest: {
          type: 'object',
          additionalProperties: true,
          description: 'Other fields are accepted and ignored (named in metadata.ignored_fields)',
          properties: {
            seed: { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 },
            episode_id: { type: 'string', maxLength: 255 },
            session_id: { type: 'string', format: 'uuid' },
            seat: { type: 'integer', minimum: 0 },
            role: { type: 'string' },
            agents: { type: 'array', items: { type: 'string' }, description: 'Only references the operator admits (--agents, --client-agents)' },
            params: { type: 'object' },
          },
        },
        StepRequest: {
          type: 'object',
          additionalProperties: true,
          required: ['action'],
          properties: { action: s.action, session_id: { type: 'string', format: 'uuid' }, timeout_s: { type: 'number', exclusiveMinimum: 0 }, request_id: { type: 'string', maxLength: 255 } },
        },
        StepResponse: {
          type: 'object',
          required: ['observation', 'reward', 'done'],
          properties: { observation: s.observation, reward: { type: ['number', 'null'] }, done: { type: 'boolean' }, metadata: { type: 'object' } },
        },
        State: s.state,
        Error: { type: 'object', required: ['detail', 'message'], properties: { detail: { type: 'string' }, message: { type: 'string' } } },
        HTTPValidationError: {
          type: 'object',
          required: ['detail', 'message'],
          properties: {
            detail: { type: 'array', items: { type: 'object', required: ['loc', 'msg', 'type'], properties: { loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: { type: 'string' }, type: { type: 'string' } } } },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}
