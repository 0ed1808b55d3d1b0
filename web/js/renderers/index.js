// @ts-check
/** Picks the renderer of an env id (by its name without the version); generic for any other env. */
import { genericRenderer } from './generic.js';
import { werewolfRenderer } from './werewolf.js';
import { countdownRenderer } from './countdown.js';
import { dealRenderer } from './deal-or-no-deal.js';
import { codeRepairRenderer } from './code-repair.js';

/** @type {Record<string, import('./context.js').Renderer>} */
const RENDERERS = { werewolf: werewolfRenderer, countdown: countdownRenderer, 'deal-or-no-deal': dealRenderer, 'code-repair': codeRepairRenderer };

/** @param {string} envId */
export function pickRenderer(envId) {
  const base = String(envId).replace(/-v\d+$/, '');
  return RENDERERS[base] ?? genericRenderer;
}
