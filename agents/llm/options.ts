/**
 * The options of an `llm:{...}` agent spec, validated with zod: errors name the field. The API
 * key is never an option: `apiKeyEnv` names the environment variable that holds it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { PromptOverrides } from '../../src/core/prompt';
import { RegistryError } from '../../src/core/registry';

const positiveInt = z.number().int().positive();

/** The spec's options (see docs/llm.md for each). */
export const LlmOptionsSchema = z
  .object({
    baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:8000/v1' }),
    model: z.string().min(1).max(256),
    /** Name of the environment variable holding the API key (none: local servers that need no key). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().gt(0).max(1).optional(),
    maxTokens: positiveInt.max(1_000_000).optional(),
    /** Send a per-decision seed drawn from the seat's generator (vLLM, llama.cpp honour it). */
    seed: z.boolean().default(false),
    /** Re-asks with the env's reason after an illegal or unparsable answer, before the fault policy applies. */
    reasks: z.number().int().min(0).max(10).default(2),
    /** Structured output: JSON schema, JSON object mode, none (strict parser only) or auto (schema, falling back when refused). */
    structured: z.enum(['auto', 'json_schema', 'json_object', 'none']).default('auto'),
    /** Requests in flight at once per endpoint (baseURL), over every agent of the process; the smallest setting wins. */
    concurrency: positiveInt.max(4096).default(8),
    /** Retries of one request on 429, 5xx and connection errors, with exponential back-off. */
    retries: z.number().int().min(0).max(50).default(4),
    backoffMs: positiveInt.max(600_000).default(500),
    maxBackoffMs: positiveInt.max(3_600_000).default(20_000),
    /** Per-request time limit in ms (the decision's deadline always applies too). */
    requestTimeoutMs: positiveInt.optional(),
    /** Previous decisions kept in the conversation (each with its answer); default all. */
    history: z.number().int().min(0).optional(),
    /** JSON file replacing the env's prompt texts: {"system", "roles": {role: text}, "instruction"}. */
    prompt: z.string().min(1).optional(),
    /** USD per million tokens, for the cost column. */
    price: z.object({ input: z.number().min(0), output: z.number().min(0) }).strict().optional(),
    /** Extra request body fields passed through (e.g. vLLM's {"top_k": 20}). */
    extraBody: z.record(z.string(), z.unknown()).optional(),
    /** Display name (default "llm:<model>"). */
    name: z.string().min(1).max(128).optional(),
  })
  .strict();

export type LlmOptions = z.infer<typeof LlmOptionsSchema>;

const OverridesSchema = z
  .object({ system: z.string().optional(), roles: z.record(z.string(), z.string()).optional(), instruction: z.string().optional() })
  .strict();

/** Validates raw options; throws a RegistryError naming the bad field (and refusing inline keys). */
export function parseLlmOptions(raw: unknown): LlmOptions {
  if (raw && typeof raw === 'object' && ('apiKey' in raw || 'api_key' in raw || 'key' in raw)) {
    throw new RegistryError('agent "llm": never put the API key in the spec; set it in an environment variable and name it with "apiKeyEnv"');
  }
  const r = LlmOptionsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const lines = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(options)'}: ${i.message}`);
    throw new RegistryError(`agent "llm": ${lines.join('; ')}`);
  }
  return r.data;
}

/** The API key from the environment variable the options name (a placeholder for keyless local servers). */
export function apiKeyOf(o: LlmOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (!o.apiKeyEnv) return 'no-key';
  const key = Object.hasOwn(env, o.apiKeyEnv) ? env[o.apiKeyEnv] : undefined;
  if (!key) throw new RegistryError(`agent "llm": environment variable ${o.apiKeyEnv} (apiKeyEnv) is not set`);
  return key;
}

/** Loads a prompt override file; errors name the file and the field. */
export function loadPromptOverrides(path: string): PromptOverrides {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new RegistryError(`agent "llm": prompt: cannot read ${path} (${(e as Error).message})`);
  }
  const r = OverridesSchema.safeParse(raw);
  if (!r.success) {
    throw new RegistryError(`agent "llm": prompt file ${path}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}
