// @ts-check
/**
 * highlight.js for the page: the server bundles the package's core with its JavaScript, TypeScript
 * and Python grammars as one ES module at /vendor/highlight.js (theme at /vendor/highlight.css,
 * linked by index.html). Loaded once; until it arrives (or when it is not served) code shows as
 * plain text, and a redraw is requested when it arrives. highlight.js escapes the source itself:
 * its output is the only markup inserted, never agent text as HTML.
 */

/** @typedef {{ highlight(source: string, options: { language: string, ignoreIllegals: boolean }): { value: string } }} Highlighter */

/** @type {Highlighter | null} */
let hljs = null;
// a URL served by the arena server, not a module TypeScript can resolve, hence the variable
const HIGHLIGHT_URL = '/vendor/highlight.js';
import(HIGHLIGHT_URL).then(
  (/** @type {{ default: Highlighter }} */ m) => {
    hljs = m.default;
    window.dispatchEvent(new Event('arena:redraw'));
  },
  () => {},
);

/** @type {Map<string, string>} */
const cache = new Map();

/**
 * Fills `code` with `source`, highlighted as `language` when highlight.js has loaded.
 * @param {HTMLElement} code
 * @param {string} source
 * @param {string} language
 */
export function fillCode(code, source, language) {
  if (!hljs) {
    code.textContent = source;
    return;
  }
  const key = language + '\u0000' + source;
  let html = cache.get(key);
  if (html === undefined) {
    html = hljs.highlight(source, { language, ignoreIllegals: true }).value;
    if (cache.size > 200) cache.clear();
    cache.set(key, html);
  }
  code.innerHTML = html;
  code.classList.add('hljs');
}
