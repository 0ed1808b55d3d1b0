/** Picks the renderer of an env id (by its name without the version); generic for any other env. */
import { genericRenderer } from './generic.js';
import { werewolfRenderer } from './werewolf.js';
import { countdownRenderer } from './countdown.js';
import { dealRenderer } from './deal-or-no-deal.js';
import { kernelSpeedupRenderer } from './kernel-speedup.js';

const RENDERERS = { werewolf: werewolfRenderer, countdown: countdownRenderer, 'deal-or-no-deal': dealRenderer, 'kernel-speedup': kernelSpeedupRenderer };

export function pickRenderer(envId) {
  const base = String(envId).replace(/-v\d+$/, '');
  return RENDERERS[base] ?? genericRenderer;
}
