/**
 * Single-point mutations of a JavaScript program, for the mutation-search fixer: parsed with
 * acorn, changed at one node, printed with astring. Operators (the usual bug shapes): comparison
 * and equality swaps, arithmetic and logical swaps, off-by-one on numeric literals, negated
 * conditions, swapped operands, increment/decrement swaps, flipped boolean literals.
 */
import { parse } from 'acorn';
import { generate } from 'astring';

type Node = { type: string; [key: string]: unknown };

const SWAPS: Record<string, string[]> = {
  '<': ['<=', '>', '>='],
  '<=': ['<', '>=', '>'],
  '>': ['>=', '<', '<='],
  '>=': ['>', '<=', '<'],
  '===': ['!=='],
  '!==': ['==='],
  '==': ['!='],
  '!=': ['=='],
  '+': ['-'],
  '-': ['+'],
  '*': ['/'],
  '/': ['*'],
  '%': ['*'],
  '&&': ['||'],
  '||': ['&&'],
};
const NON_COMMUTATIVE = new Set(['-', '/', '%', '<', '<=', '>', '>=']);

/** One way to change the program: the index of the node (in walk order) and what to do to it. */
interface Site {
  index: number;
  apply: (n: Node) => void;
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const [k, v] of Object.entries(node as Node)) if (k !== 'type' && v && typeof v === 'object') walk(v, visit);
}

/** Makes `node` become `by` in place (drops the negation `!x` -> `x`). */
function replaceWith(node: Node, by: Node): void {
  for (const k of Object.keys(node)) delete node[k];
  Object.assign(node, by);
}

function sitesOf(ast: Node): Site[] {
  const sites: Site[] = [];
  let index = 0;
  walk(ast, (n) => {
    const i = index++;
    if ((n.type === 'BinaryExpression' || n.type === 'LogicalExpression') && typeof n.operator === 'string') {
      for (const op of SWAPS[n.operator] ?? []) sites.push({ index: i, apply: (m) => void (m.operator = op) });
      if (NON_COMMUTATIVE.has(n.operator)) sites.push({ index: i, apply: (m) => void ([m.left, m.right] = [m.right, m.left]) });
    }
    if (n.type === 'Literal' && typeof n.value === 'number') {
      const v = n.value;
      for (const w of [v + 1, v - 1]) sites.push({ index: i, apply: (m) => void ((m.value = w), (m.raw = String(w))) });
    }
    if (n.type === 'Literal' && typeof n.value === 'boolean') sites.push({ index: i, apply: (m) => void ((m.value = !m.value), (m.raw = String(m.value))) });
    if ((n.type === 'IfStatement' || n.type === 'ConditionalExpression' || n.type === 'WhileStatement') && n.test) {
      sites.push({ index: i, apply: (m) => void (m.test = { type: 'UnaryExpression', operator: '!', prefix: true, argument: m.test }) });
    }
    if (n.type === 'UnaryExpression' && n.operator === '!') sites.push({ index: i, apply: (m) => replaceWith(m, m.argument as Node) });
    if (n.type === 'UpdateExpression') sites.push({ index: i, apply: (m) => void (m.operator = m.operator === '++' ? '--' : '++') });
  });
  return sites;
}

/** Every single mutation of `source` (deduplicated, never the source itself), or [] when it does not parse. */
export function mutants(source: string): string[] {
  let ast: Node;
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as Node;
  } catch {
    return [];
  }
  const printed = generate(ast as never);
  const seen = new Set<string>([printed]);
  const out: string[] = [];
  for (const site of sitesOf(ast)) {
    const copy = JSON.parse(JSON.stringify(ast)) as Node;
    let k = 0;
    walk(copy, (n) => {
      if (k++ === site.index) site.apply(n);
    });
    let text: string;
    try {
      text = generate(copy as never);
    } catch {
      continue;
    }
    if (!seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  return out;
}
