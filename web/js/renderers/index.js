// @ts-check
/**
 * Picks the renderer of an env id (by its name without the version). A built-in env's renderer
 * lives in the env's folder, envs/<env>/web/renderer.js (served at /envs/<env>/web/renderer.js),
 * and exports `renderer`; nothing here lists the envs. The first time an env is drawn its
 * renderer is imported; until it arrives, and for an env without one (the import fails), the
 * generic renderer draws. Its arrival asks the page for a redraw ('arena:redraw').
 */
import { genericRenderer } from './generic.js';

/** @typedef {import('./context.js').Renderer} Renderer */

/** Renderers that arrived, by env name. @type {Map<string, Renderer>} */
const loaded = new Map();
/** Env names whose renderer was asked for (once each: a failed import is not retried). @type {Set<string>} */
const asked = new Set();

/**
 * Where an env's renderer is served, or null for a name that cannot be an env folder's (only
 * lower-case letters, digits and dashes: an env id never chooses another path of the site).
 * @param {string} envId
 */
export function rendererUrl(envId) {
  const base = String(envId).replace(/-v\d+$/, '');
  return /^[a-z0-9][a-z0-9-]*$/.test(base) ? `/envs/${base}/web/renderer.js` : null;
}

/** @param {string} envId */
export function pickRenderer(envId) {
  const url = rendererUrl(envId);
  if (!url) return genericRenderer;
  const have = loaded.get(url);
  if (have) return have;
  if (!asked.has(url)) {
    asked.add(url);
    import(url).then(
      (m) => {
        const r = /** @type {{ renderer?: Renderer }} */ (m).renderer;
        if (!r || typeof r.render !== 'function') return;
        loaded.set(url, r);
        window.dispatchEvent(new Event('arena:redraw'));
      },
      () => {}, // no renderer in this env's folder (or none served): the generic one draws
    );
  }
  return genericRenderer;
}
