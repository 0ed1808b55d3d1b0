/**
 * `llm`: an agent over any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp's server,
 * Ollama...), through the official `openai` client. Spec:
 * `llm:{"baseURL":"http://127.0.0.1:8000/v1","model":"Qwen/Qwen2.5-7B-Instruct","temperature":0.7}`;
 * the key, when the server needs one, comes from the environment variable named by `apiKeyEnv`.
 * See docs/llm.md.
 */
import type { AgentFactory } from '../../src/core/agent';
import { RegistryError } from '../../src/core/registry';

/** The `llm` agent kind (plays any env; prompts from the env's template). */
export const llmAgent: AgentFactory = {
  name: 'llm',
  description: 'a language model over an OpenAI-compatible chat API: llm:{"baseURL":...,"model":...,"apiKeyEnv":"VAR"} (docs/llm.md)',
  create: ({ env, options }) => {
    if (!options) throw new RegistryError('agent "llm" needs options: llm:{"baseURL":"http://127.0.0.1:8000/v1","model":"..."}');
    // Loaded on first use, so commands that never play an LLM load neither the openai client
    // nor the options' schema (zod).
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { apiKeyOf, loadPromptOverrides, parseLlmOptions } = require('./options') as typeof import('./options');
    const { LlmAgent } = require('./llm-agent') as typeof import('./llm-agent');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const o = parseLlmOptions(options);
    const overrides = o.prompt ? loadPromptOverrides(o.prompt) : undefined;
    return new LlmAgent(env, o, apiKeyOf(o), overrides);
  },
};


export type { LlmDecisionRecord } from './llm-agent';
export type { LlmOptions } from './options';
export { answerFormat, parseAnswer, extractJsonObject, type AnswerFormat } from '../../src/core/answer-format';
export { SyntheticTranscript, type ChatMessage } from '../../src/core/transcript';
