/**
 * The strict answer parser: a tokenizer and a recursive-descent parser for arithmetic over
 * integers with + − × ÷ (written `+ - * /`), parentheses and whitespace. Never `eval`.
 *
 * Grammar (left-associative, × and ÷ bind tighter):
 *   expr   := term (('+' | '-') term)*
 *   term   := factor (('*' | '/') factor)*
 *   factor := INTEGER | '(' expr ')'
 *
 * Everything else is rejected with a reason naming what and where (1-based character
 * position): `**`, `//`, decimals, unknown characters (including `=`, `x`, `×`, `÷`), unary
 * signs, leading zeros, unbalanced parentheses, a missing operand.
 */
import type { Op } from './infix';

/** Parsed answer: a number (with its position) or an operation. */
export type Ast = { num: number; pos: number } | { op: Op; left: Ast; right: Ast; pos: number };

/** Result of parsing: the tree, or the first problem found. */
export type ParseResult = { ok: true; ast: Ast } | { ok: false; reason: string };

/** Longest answer text accepted by the parser (characters). */
export const MAX_ANSWER_LENGTH = 2000;
const MAX_DIGITS = 9;
const MAX_DEPTH = 100;

type Token = { kind: 'num'; value: number; pos: number } | { kind: 'op'; op: Op; pos: number } | { kind: '(' | ')'; pos: number };

class Reject extends Error {}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code < 32 || code === 127 ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${ch}'`;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const pos = i + 1;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
    } else if (ch >= '0' && ch <= '9') {
      let j = i;
      while (j < text.length && text[j] >= '0' && text[j] <= '9') j++;
      if (text[j] === '.') {
        let k = j + 1;
        while (k < text.length && text[k] >= '0' && text[k] <= '9') k++;
        throw new Reject(`decimal numbers are not allowed ("${text.slice(i, k)}" at position ${pos})`);
      }
      const digits = text.slice(i, j);
      if (digits.length > 1 && digits[0] === '0') throw new Reject(`number "${digits}" at position ${pos} has a leading zero`);
      if (digits.length > MAX_DIGITS) throw new Reject(`number at position ${pos} is too long (${digits.length} digits)`);
      out.push({ kind: 'num', value: Number(digits), pos });
      i = j;
    } else if (ch === '*' || ch === '/') {
      if (text[i + 1] === ch) throw new Reject(ch === '*' ? `"**" (power) is not allowed (position ${pos})` : `"//" (integer division) is not allowed (position ${pos})`);
      out.push({ kind: 'op', op: ch, pos });
      i++;
    } else if (ch === '+' || ch === '-') {
      out.push({ kind: 'op', op: ch, pos });
      i++;
    } else if (ch === '(' || ch === ')') {
      out.push({ kind: ch, pos });
      i++;
    } else if (ch === '.') {
      throw new Reject(`decimal numbers are not allowed ("." at position ${pos})`);
    } else {
      const cp = text.codePointAt(i) ?? 0;
      throw new Reject(`unknown character ${describeChar(String.fromCodePoint(cp))} at position ${pos}`);
    }
  }
  return out;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Ast {
    if (this.tokens.length === 0) throw new Reject('empty expression');
    const ast = this.expr();
    const t = this.tokens[this.i];
    if (t) throw new Reject(t.kind === ')' ? `unmatched ")" at position ${t.pos}` : `unexpected ${this.describe(t)} at position ${t.pos} (missing operator?)`);
    return ast;
  }

  private describe(t: Token): string {
    return t.kind === 'num' ? `number ${t.value}` : t.kind === 'op' ? `"${t.op}"` : `"${t.kind}"`;
  }

  private expr(): Ast {
    let left = this.term();
    for (let t = this.tokens[this.i]; t && t.kind === 'op' && (t.op === '+' || t.op === '-'); t = this.tokens[this.i]) {
      this.i++;
      left = { op: t.op, left, right: this.term(), pos: t.pos };
    }
    return left;
  }

  private term(): Ast {
    let left = this.factor();
    for (let t = this.tokens[this.i]; t && t.kind === 'op' && (t.op === '*' || t.op === '/'); t = this.tokens[this.i]) {
      this.i++;
      left = { op: t.op, left, right: this.factor(), pos: t.pos };
    }
    return left;
  }

  private factor(): Ast {
    const t = this.tokens[this.i];
    const prev = this.tokens[this.i - 1];
    if (!t) {
      throw new Reject(prev && prev.kind === 'op' ? `expression ends after "${prev.op}" (missing operand)` : 'expression ends early (missing operand)');
    }
    if (t.kind === 'num') {
      this.i++;
      return { num: t.value, pos: t.pos };
    }
    if (t.kind === '(') {
      if (++this.depth > MAX_DEPTH) throw new Reject(`parentheses nested deeper than ${MAX_DEPTH}`);
      this.i++;
      const inner = this.expr();
      const close = this.tokens[this.i];
      if (!close || close.kind !== ')') throw new Reject(`missing ")" for "(" at position ${t.pos}`);
      this.i++;
      this.depth--;
      return inner;
    }
    if (t.kind === 'op') {
      if ((t.op === '-' || t.op === '+') && (!prev || prev.kind === 'op' || prev.kind === '(')) {
        throw new Reject(`unary "${t.op}" is not allowed (position ${t.pos})`);
      }
      throw new Reject(`missing operand before "${t.op}" at position ${t.pos}`);
    }
    throw new Reject(`missing operand before ")" at position ${t.pos}`);
  }
}

/** Parses an answer expression; never throws. */
export function parseExpression(text: string): ParseResult {
  if (text.length > MAX_ANSWER_LENGTH) return { ok: false, reason: `expression longer than ${MAX_ANSWER_LENGTH} characters` };
  try {
    return { ok: true, ast: new Parser(tokenize(text)).parse() };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, reason: e.message };
    throw e;
  }
}

/** The numbers of a parsed expression, left to right. */
export function astNumbers(ast: Ast, out: number[] = []): number[] {
  if ('num' in ast) out.push(ast.num);
  else {
    astNumbers(ast.left, out);
    astNumbers(ast.right, out);
  }
  return out;
}
