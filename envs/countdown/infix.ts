/**
 * Expression trees of the numbers game and their infix text, printed with the fewest
 * parentheses that still re-parse to the same tree (so the intermediate results a reader
 * computes are the ones the solver used).
 */

/** A binary operator of the numbers game. */
export type Op = '+' | '-' | '*' | '/';

/** An expression tree: a leaf is the index of a tile; a node is [operator, left, right]. Plain JSON. */
export type Tree = number | [Op, Tree, Tree];

const PREC: Record<Op, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };

function precOf(t: Tree): number {
  return typeof t === 'number' ? 3 : PREC[t[0]];
}

/**
 * Infix text of a tree; `leafText(i)` prints tile i. The left operand is parenthesized when it
 * binds looser than its operator, the right one when it binds looser or equally (the parser is
 * left-associative).
 */
export function treeText(t: Tree, leafText: (index: number) => string): string {
  if (typeof t === 'number') return leafText(t);
  const [op, left, right] = t;
  const p = PREC[op];
  const l = treeText(left, leafText);
  const r = treeText(right, leafText);
  return `${precOf(left) < p ? `(${l})` : l} ${op} ${precOf(right) <= p ? `(${r})` : r}`;
}

/** Leaf indices of a tree, left to right. */
export function treeLeaves(t: Tree, out: number[] = []): number[] {
  if (typeof t === 'number') out.push(t);
  else {
    treeLeaves(t[1], out);
    treeLeaves(t[2], out);
  }
  return out;
}

/**
 * Re-assigns leaf indices so that no tile is used twice: each leaf takes the first unused tile
 * whose key equals its current tile's key (solvers treat equal tiles as interchangeable).
 */
export function distinctLeaves(t: Tree, keyOf: (index: number) => string, tileCount: number): Tree {
  const used = new Array<boolean>(tileCount).fill(false);
  const walk = (x: Tree): Tree => {
    if (typeof x !== 'number') return [x[0], walk(x[1]), walk(x[2])];
    const k = keyOf(x);
    for (let i = 0; i < tileCount; i++) {
      if (!used[i] && keyOf(i) === k) {
        used[i] = true;
        return i;
      }
    }
    throw new Error('distinctLeaves: a tile is used more often than it exists (internal error)');
  };
  return walk(t);
}
