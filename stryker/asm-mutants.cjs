'use strict';
/**
 * Mutants of x86-64 assembly held in a TypeScript template string next to its assembled bytes
 * (src/sandbox/python-fork-init.ts: `FORK_INIT_X86_64_SOURCE` and `FORK_INIT_X86_64_HEX`), for
 * stryker/python-mutants.cjs. Stryker cannot mutate it (it is text to Stryker), and a mutant of
 * the source alone would only fail the test that compares the bytes with the source: each mutant
 * here changes one instruction of the source and is assembled again (GNU `as`, `objcopy`), and the
 * file's bytes are replaced by the mutant's, so the tests run the mutated machine code.
 *
 * Edits, one per mutant: an instruction replaced by `nop` (dropped); a conditional jump inverted
 * (`jz` and `jnz`, `js` and `jns`, ...); an immediate number changed (0 -> 1, any other -> 0);
 * a memory operand's offset moved to the next 8-byte slot; `add` and `sub` swapped. A mutant whose
 * source does not assemble, or whose bytes are the original's, is no mutant and is left out.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SOURCE_START = /^export const FORK_INIT_X86_64_SOURCE = `/;
const HEX = /export const FORK_INIT_X86_64_HEX =[^;]*;/;
const INVERSE = { jz: 'jnz', jnz: 'jz', je: 'jne', jne: 'je', js: 'jns', jns: 'js', jl: 'jge', jge: 'jl', jg: 'jle', jle: 'jg', jb: 'jae', jae: 'jb' };

/** The bytes the file holds (FORK_INIT_X86_64_HEX's string, its pieces joined), in hex. */
function hexOf(text) {
  return HEX.exec(text)[0].replace(/^[^=]*=/, '').replace(/[^0-9a-f]/g, '');
}

/** Whether the file holds assembly this module mutates. */
function hasAssembly(text) {
  return text.split('\n').some((l) => SOURCE_START.test(l)) && HEX.test(text);
}

/** Lines (0-based) of the file that are instructions of the assembly source (not labels alone, directives or comments). */
function asmLines(text) {
  const lines = text.split('\n');
  const out = [];
  let inside = false;
  lines.forEach((line, i) => {
    if (!inside) {
      inside = SOURCE_START.test(line);
      return;
    }
    if (/^`;\s*$/.test(line)) {
      inside = false;
      return;
    }
    const code = line.replace(/#.*$/, '').replace(/^\s*\w+:/, '').trim();
    if (code && !code.startsWith('.')) out.push(i);
  });
  return out;
}

/** The mutants of one instruction line: [description, new line]. */
function asmMutantsOf(line) {
  const out = [];
  const comment = /\s*#.*$/.exec(line)?.[0] ?? '';
  const body = line.slice(0, line.length - comment.length);
  const label = /^\s*\w+:/.exec(body)?.[0] ?? '';
  const indent = label ? ' '.repeat(4) : /^\s*/.exec(body)[0];
  const code = body.slice(label.length).trim();
  const [op, ...rest] = code.split(/\s+/);
  const operands = rest.join(' ');
  const at = (next) => `${label}${label ? ' ' : indent}${next}`;
  out.push([`instruction -> nop: ${code}`, at('nop')]);
  if (INVERSE[op]) out.push([`jump inverted: ${op} -> ${INVERSE[op]}`, at(`${INVERSE[op]} ${operands}`)]);
  if (op === 'add' || op === 'sub') out.push([`arithmetic: ${op} -> ${op === 'add' ? 'sub' : 'add'}`, at(`${op === 'add' ? 'sub' : 'add'} ${operands}`)]);
  const imm = /(,\s*)(-?(?:0x[0-9a-f]+|\d+))$/i.exec(operands);
  if (imm && !operands.endsWith(']')) {
    const to = Number(imm[2]) === 0 ? '1' : '0';
    out.push([`number: ${imm[2]} -> ${to}`, at(`${op} ${operands.slice(0, imm.index)}${imm[1]}${to}`)]);
  }
  const offset = /\[(\w+)\+(\d+)\]/.exec(operands);
  if (offset) {
    const to = Number(offset[2]) + 8;
    out.push([`offset: +${offset[2]} -> +${to}`, at(`${op} ${operands.replace(offset[0], `[${offset[1]}+${to}]`)}`)]);
  }
  return out;
}

/** The template's assembly source in the file's text (the lines between its opening and its closing backtick). */
function sourceOf(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => SOURCE_START.test(l));
  const end = lines.findIndex((l, i) => i > start && /^`;\s*$/.test(l));
  return [lines[start].replace(SOURCE_START, ''), ...lines.slice(start + 1, end)].join('\n') + '\n';
}

/** The assembled bytes of a source (hex), or null where it does not assemble. */
function assemble(source) {
  const dir = mkdtempSync(join(tmpdir(), 'asm-mutants-'));
  try {
    writeFileSync(join(dir, 'a.s'), source);
    execFileSync('as', ['--64', '-o', join(dir, 'a.o'), join(dir, 'a.s')], { stdio: 'ignore' });
    execFileSync('objcopy', ['-O', 'binary', '-j', '.text', join(dir, 'a.o'), join(dir, 'a.bin')], { stdio: 'ignore' });
    return readFileSync(join(dir, 'a.bin')).toString('hex');
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each file text's own bytes, assembled once. */
const originals = new Map();

/**
 * The file's text with line `index` (0-based) replaced and its bytes assembled again, or null
 * where the mutant does not assemble or assembles to the original bytes.
 */
function withAssembledLine(text, index, next) {
  const lines = text.split('\n');
  if (!originals.has(text)) originals.set(text, assemble(sourceOf(text)));
  const original = originals.get(text);
  lines[index] = next;
  const mutated = lines.join('\n');
  const hex = assemble(sourceOf(mutated));
  if (!hex || hex === original) return null;
  return mutated.replace(HEX, `export const FORK_INIT_X86_64_HEX = '${hex}';`);
}

module.exports = { hasAssembly, asmLines, asmMutantsOf, withAssembledLine, assemble, sourceOf, hexOf };
