// @ts-check
/** Picks the renderer of an env id (by its name without the version); generic for any other env. */
import { genericRenderer } from './generic.js';
import { werewolfRenderer } from '../../../envs/werewolf/web/renderer.js';
import { countdownRenderer } from '../../../envs/countdown/web/renderer.js';
import { dealRenderer } from '../../../envs/deal-or-no-deal/web/renderer.js';
import { codeRepairRenderer } from '../../../envs/code-repair/web/renderer.js';
import { kernelSpeedupRenderer } from '../../../envs/kernel-speedup/web/renderer.js';

/** @type {Record<string, import('./context.js').Renderer>} */
const RENDERERS = { werewolf: werewolfRenderer, countdown: countdownRenderer, 'deal-or-no-deal': dealRenderer, 'code-repair': codeRepairRenderer, 'kernel-speedup': kernelSpeedupRenderer };

/** @param {string} envId */
export function pickRenderer(envId) {
  const base = String(envId).replace(/-v\d+$/, '');
  return RENDERERS[base] ?? genericRenderer;
}
