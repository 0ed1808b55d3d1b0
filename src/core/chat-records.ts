/**
 * What a talking agent keeps of its episode: per decision, the chat messages of the final request,
 * the completion and the action it answered. An agent that talks (the LLM agent) exposes them as
 * `records` beside its `snapshot`; rollouts read them through {@link chatRecordsOf}, so the data
 * pipeline needs this contract, not the agent's package.
 */
import type { Agent } from './agent';

/** What a talking agent saw and answered at one decision (the last request of the decision). */
export interface ChatDecisionRecord {
  step: number;
  seat: number;
  /** The messages of the final request (system, history, this decision's user message and re-asks). */
  messages: { role: string; content: string }[];
  /** The final completion text. */
  completion: string;
  /** The action it answered (undefined when no valid answer came). */
  action: unknown;
  /** Requests made for this decision (1 + re-asks). */
  attempts: number;
  ok: boolean;
}

/** The per-decision records of a talking agent's current episode; null for agents that do not talk. */
export function chatRecordsOf(agent: Agent): ChatDecisionRecord[] | null {
  const records = (agent as { records?: unknown }).records;
  return agent.name && Array.isArray(records) && typeof (agent as { snapshot?: unknown }).snapshot === 'object' ? (records as ChatDecisionRecord[]) : null;
}
