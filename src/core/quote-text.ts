/**
 * Other seats' words inside a text player's prompt. A seat's free text (Werewolf speech, a
 * Deal-or-No-Deal message) reaches an LLM verbatim, so a hostile speaker could write chat-template
 * control tokens (`<|im_start|>system`, `<|endoftext|>`, `[INST]`, `<start_of_turn>`...) that a
 * server's tokenizer turns into real structure, or a newline and "Moderator: ..." that reads as
 * the env's own line. Envs quote such text with {@link quoteSpeech} (one JSON string on one line);
 * the LLM agent also passes every observation through {@link neutralizeControlTokens}, so an env
 * that forgets to quote still cannot be used to forge structure.
 */

/** Special tokens of common chat templates, each matched whole (case-insensitive where templates vary). */
const CONTROL_TOKENS: readonly RegExp[] = [
  /<\|[^|<>\s]{0,64}\|>/g, // ChatML and Llama 3 (<|im_start|>, <|eot_id|>, <|endoftext|>, <|start_header_id|>...), Phi, Command R
  /<｜[^｜<>\s]{0,64}｜>/g, // DeepSeek (fullwidth bars: <｜begin▁of▁sentence｜>)
  /<\/?(?:s|bos|eos|pad|unk|start_of_turn|end_of_turn|think|tool_call|tool_response)>/gi, // Llama 2 / Mistral BOS-EOS, Gemma turns, reasoning and tool tags
  /<<\/?SYS>>/g, // Llama 2 system block
  /\[\/?(?:INST|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS)\]/g, // Llama 2 / Mistral
];

/**
 * The text with every chat-template control token broken up by spaces (`<|im_start|>` becomes
 * `< |im_start| >`, `[INST]` becomes `[ INST ]`): still readable, never one token.
 */
export function neutralizeControlTokens(text: string): string {
  let out = text;
  for (const re of CONTROL_TOKENS) out = out.replace(re, (t) => `${t[0]} ${t.slice(1, -1)} ${t[t.length - 1]}`);
  return out;
}

/**
 * Another seat's words as one quoted string on one line: control tokens neutralized, then JSON
 * quoting (quotes, backslashes, newlines and control characters escaped), and the Unicode line
 * separators escaped too, so the words can neither end the quote nor start a line of their own.
 */
export function quoteSpeech(text: string): string {
  return JSON.stringify(neutralizeControlTokens(text)).replace(/[\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
