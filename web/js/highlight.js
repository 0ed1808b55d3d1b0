/**
 * highlight.js for the page, loaded once on first use: the core is the package's CommonJS build
 * (served at /vendor/highlight/core.js, evaluated here with a `module` object), the JavaScript and
 * TypeScript grammars are ES modules, the theme a stylesheet. Resolves to null when the files
 * are not served (the caller then keeps plain text).
 */
let ready = null;

export function loadHighlight() {
  ready ??= (async () => {
    try {
      const res = await fetch('/vendor/highlight/core.js');
      if (!res.ok) return null;
      const module = { exports: {} };
      new Function('module', 'exports', await res.text())(module, module.exports);
      const hljs = module.exports;
      const [js, ts] = await Promise.all([import('/vendor/highlight/javascript.js'), import('/vendor/highlight/typescript.js')]);
      hljs.registerLanguage('javascript', js.default);
      hljs.registerLanguage('typescript', ts.default);
      if (!document.querySelector('link[data-hljs]')) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = '/vendor/highlight/github.css';
        link.dataset.hljs = '1';
        document.head.append(link);
      }
      return hljs;
    } catch {
      return null;
    }
  })();
  return ready;
}

const cache = new Map();

/**
 * Highlights every `code[data-lang]` under `root` that is not highlighted yet. highlight.js
 * escapes the source itself (its output is the only markup inserted, never agent text as HTML).
 */
export async function highlightWithin(root) {
  const hljs = await loadHighlight();
  if (!hljs) return;
  for (const el of root.querySelectorAll('code[data-lang]:not(.hljs)')) {
    const lang = el.dataset.lang;
    const text = el.textContent;
    const key = lang + '\u0000' + text;
    let html = cache.get(key);
    if (html === undefined) {
      html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
      if (cache.size > 200) cache.clear();
      cache.set(key, html);
    }
    el.innerHTML = html;
    el.classList.add('hljs');
  }
}
