// @ts-check
/**
 * Tiny DOM helpers. Text always goes through text nodes, never innerHTML, so nothing an agent
 * says can inject markup. `patch` updates a live element in place to match freshly built
 * children (a small morph): nodes that stay keep their identity, focus, scroll position and
 * the open state of <details>, so a renderer can describe the whole view every frame without
 * the page rebuilding its DOM.
 */

/** @typedef {Node | string | number | null | undefined | false | readonly unknown[]} Child A node, text, nothing, or a (nested) list of children. */
/** @typedef {Record<string, unknown>} Attrs */

/** Event handlers by element (set by `h`, carried over by `patch`). @type {WeakMap<Element, Record<string, (e: Event) => void>>} */
const handlers = new WeakMap();
/** Properties (not attributes) set by `h`, such as `selected` or `value`. @type {WeakMap<Element, Record<string, unknown>>} */
const props = new WeakMap();

/** @param {Event} e */
function dispatch(e) {
  const el = /** @type {Element} */ (e.currentTarget);
  handlers.get(el)?.[e.type]?.(e);
}

/**
 * Creates an element: h('div', { class: 'x', onclick: fn, dataset: {a: 1}, style: {left: '1%'} }, child, 'text', ...).
 * A `key` attribute (data-key) lets `patch` match the element across frames.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || (v === false && !(k in el))) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'key') el.dataset.key = String(v);
    else if (k === 'dataset') for (const [dk, dv] of Object.entries(/** @type {Record<string, unknown>} */ (v))) el.dataset[dk] = String(dv);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') {
      const type = k.slice(2);
      const map = handlers.get(el) ?? {};
      map[type] = /** @type {(e: Event) => void} */ (v);
      handlers.set(el, map);
      el.addEventListener(type, dispatch);
    } else if (k in el && typeof v !== 'string') {
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[k] = v;
      props.set(el, { ...(props.get(el) ?? {}), [k]: v });
    } else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/**
 * @param {Node} el
 * @param {readonly unknown[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * Replaces an element's children (for page skeletons built once).
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Updates `el`'s children in place to match `children` (built fresh with `h`): equal nodes are
 * kept, changed text and attributes are rewritten, handlers and properties carried over, and
 * only missing nodes are created. Elements with a `key` are matched by key.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function patch(el, ...children) {
  const holder = document.createDocumentFragment();
  append(holder, children);
  morphChildren(el, [...holder.childNodes]);
  return el;
}

/** @param {Node} n @returns {string | null} */
function keyOf(n) {
  return n instanceof HTMLElement ? (n.dataset.key ?? null) : null;
}

/** @param {Node} a @param {Node} b */
function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

/**
 * @param {Node} parent
 * @param {Node[]} wanted
 */
function morphChildren(parent, wanted) {
  /** @type {Map<string, Node>} */
  const keyed = new Map();
  for (const c of parent.childNodes) {
    const k = keyOf(c);
    if (k !== null) keyed.set(k, c);
  }
  let cursor = parent.firstChild;
  for (const w of wanted) {
    const k = keyOf(w);
    /** @type {Node | null} */
    let match = null;
    if (k !== null) {
      const old = keyed.get(k);
      if (old && sameKind(old, w)) {
        match = old;
        keyed.delete(k);
      }
    } else if (cursor && keyOf(cursor) === null && sameKind(cursor, w)) match = cursor;
    if (match) {
      if (match === cursor) cursor = cursor.nextSibling;
      else parent.insertBefore(match, cursor);
      morph(match, w);
    } else parent.insertBefore(w, cursor);
  }
  while (cursor) {
    const next = cursor.nextSibling;
    parent.removeChild(cursor);
    cursor = next;
  }
}

/**
 * @param {Node} have
 * @param {Node} want
 */
function morph(have, want) {
  if (!(have instanceof Element) || !(want instanceof Element)) {
    if (have.nodeValue !== want.nodeValue) have.nodeValue = want.nodeValue;
    return;
  }
  for (const a of [...have.attributes]) {
    // the open state of <details> belongs to the person reading
    if (a.name === 'open' && have.tagName === 'DETAILS') continue;
    if (!want.hasAttribute(a.name)) have.removeAttribute(a.name);
  }
  for (const a of want.attributes) {
    if (a.name === 'open' && have.tagName === 'DETAILS') continue;
    if (have.getAttribute(a.name) !== a.value) have.setAttribute(a.name, a.value);
  }
  const on = handlers.get(want);
  if (on) {
    const old = handlers.get(have) ?? {};
    for (const type of Object.keys(on)) if (!(type in old)) have.addEventListener(type, dispatch);
    handlers.set(have, on);
  }
  const p = props.get(want);
  if (p) {
    for (const [k, v] of Object.entries(p)) {
      if (k === 'value' && have === document.activeElement) continue;
      if (k === 'open' && have.tagName === 'DETAILS') continue;
      const target = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (have));
      if (target[k] !== v) target[k] = v;
    }
    props.set(have, p);
  }
  if (have.tagName === 'CANVAS') return;
  morphChildren(have, [...want.childNodes]);
}

/**
 * Compact JSON for display.
 * @param {unknown} value
 * @param {number} [max]
 */
export function short(value, max = 160) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) text = String(value);
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/**
 * "12s ago" style relative time.
 * @param {number | null | undefined} ms
 */
export function ago(ms) {
  if (!ms) return '';
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return new Date(ms).toLocaleDateString();
}

/**
 * Names with repeats folded: ["a", "a", "b"] -> "a ×2 · b" (first-seen order).
 * @param {readonly string[]} names
 * @param {string} [sep]
 */
export function groupNames(names, sep = ' · ') {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(sep);
}

/**
 * Adds a stylesheet link to the page once (an env's renderer brings its own styles:
 * envs/<env>/web/renderer.css, named from the renderer module's own URL). Does nothing where
 * there is no document (a module loaded outside the browser).
 * @param {string} href
 */
export function addStylesheet(href) {
  if (typeof document === 'undefined') return;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => /** @type {HTMLLinkElement} */ (l).href === href)) return;
  document.head.append(h('link', { rel: 'stylesheet', href }));
}
