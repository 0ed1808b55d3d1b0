/**
 * stryker/asm-mutants.cjs: the mutants of the fork server's machine-code init
 * (src/sandbox/python-fork-init.ts) that stryker/python-mutants.cjs tests. Each must change the
 * machine code the tests run (the file's bytes are the mutated source's assembly), never only the
 * source; and python-mutants.cjs refuses a file whose bytes are not its source's, or a file that
 * does not exist. Needs GNU as and objcopy (skipped without them, as python-fork-init.test.ts's
 * byte check is).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FORK_INIT_X86_64_HEX } from '../src/sandbox/python-fork-init';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const asm = require('../stryker/asm-mutants.cjs') as {
  hasAssembly(text: string): boolean;
  asmLines(text: string): number[];
  asmMutantsOf(line: string): [string, string][];
  withAssembledLine(text: string, index: number, next: string): string | null;
  assemble(source: string): string | null;
  sourceOf(text: string): string;
  hexOf(text: string): string;
};

const ROOT = resolve(__dirname, '..');
const FILE = join(ROOT, 'src/sandbox/python-fork-init.ts');
const assembler = spawnSync('as', ['--version']).status === 0 && spawnSync('objcopy', ['--version']).status === 0;

describe('the machine-code init under mutation', () => {
  const text = readFileSync(FILE, 'utf8');
  const lines = text.split('\n');

  test('its instruction lines: every line of the source that is an instruction, and nothing else', () => {
    expect(asm.hasAssembly(text)).toBe(true);
    expect(asm.hasAssembly(text.replace('FORK_INIT_X86_64_HEX', 'OTHER'))).toBe(false);
    const found = asm.asmLines(text).map((i) => lines[i].replace(/#.*$/, '').trim());
    const source = asm.sourceOf(text).split('\n');
    const instructions = source.map((l) => l.replace(/#.*$/, '').trim()).filter((l) => l && !l.startsWith('.') && !/^\w+:$/.test(l));
    expect(found).toEqual(instructions);
    expect(found).toContain('syscall');
    expect(found).not.toContain('start_run:');
  });

  test('the edits of one line: nop, the jump inverted, the number, the offset, add and sub', () => {
    expect(asm.asmMutantsOf('    jz init').map(([, l]) => l)).toEqual(['    nop', '    jnz init']);
    expect(asm.asmMutantsOf('    mov eax, 56                # clone').map(([, l]) => l)).toEqual(['    nop', '    mov eax, 0']);
    expect(asm.asmMutantsOf('    xor edx, edx').map(([, l]) => l)).toEqual(['    nop']);
    expect(asm.asmMutantsOf('    mov rdi, [r12+72]').map(([, l]) => l)).toEqual(['    nop', '    mov rdi, [r12+80]']);
    expect(asm.asmMutantsOf('    add edi, 128').map(([, l]) => l)).toEqual(['    nop', '    sub edi, 128', '    add edi, 0']);
    expect(asm.asmMutantsOf('    cmp rax, 0').map(([, l]) => l)).toEqual(['    nop', '    cmp rax, 1']);
  });

  (assembler ? test : test.skip)('each mutant changes the machine code: its bytes are the assembly of its source, and differ from the original', () => {
    expect(asm.hexOf(text)).toBe(FORK_INIT_X86_64_HEX);
    expect(asm.assemble(asm.sourceOf(text))).toBe(asm.hexOf(text));
    const original = asm.hexOf(text);
    let count = 0;
    for (const i of asm.asmLines(text)) {
      for (const [, next] of asm.asmMutantsOf(lines[i])) {
        const mutated = asm.withAssembledLine(text, i, next);
        if (!mutated) continue;
        count++;
        expect(mutated.split('\n')[i]).toBe(next);
        expect(asm.hexOf(mutated)).toBe(asm.assemble(asm.sourceOf(mutated)));
        expect(asm.hexOf(mutated)).not.toBe(original);
      }
    }
    expect(count).toBeGreaterThan(100);
    const jump = asm.asmLines(text).find((i) => lines[i].trim() === 'jz init')!;
    expect(asm.withAssembledLine(text, jump, '    bogus rax')).toBeNull(); // does not assemble
    expect(asm.withAssembledLine(text, jump, lines[jump])).toBeNull(); // the same bytes
  });

  const tool = (root: string, ...args: string[]) => spawnSync(process.execPath, [join(root, 'stryker', 'python-mutants.cjs'), ...args], { cwd: root, encoding: 'utf8' });

  test('python-mutants.cjs lists the file\'s mutants (Python and assembly), no edit that changes nothing, and refuses a file that does not exist', () => {
    const r = tool(ROOT, '--file', 'src/sandbox/python-fork-init.ts', '--list', '--lines', '60-60');
    expect(r.stdout).toBe(assembler ? '60: instruction -> nop: mov eax, 56\n60: number: 56 -> 0\n2 mutants (0 edits of the assembly left out: not assembled, or the same bytes)\n' : expect.any(String));
    const python = tool(ROOT, '--file', 'src/sandbox/python-fork-init.ts', '--list', '--lines', '155-157');
    expect(python.stdout).toMatch(/^156: comparison: != -> ==\n1 mutants /); // \`return None\` made \`return None\` is no mutant
    const missing = tool(ROOT, '--file', 'src/sandbox/nope.ts', '--list');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('python-mutants: --file src/sandbox/nope.ts: no such file\n');
  });

  (assembler ? test : test.skip)('python-mutants.cjs refuses a file whose bytes are not its source\'s', () => {
    const root = mkdtempSync(join(tmpdir(), 'arena-asm-mutants-'));
    try {
      mkdirSync(join(root, 'stryker'));
      mkdirSync(join(root, 'src', 'sandbox'), { recursive: true });
      for (const f of ['python-mutants.cjs', 'asm-mutants.cjs']) copyFileSync(join(ROOT, 'stryker', f), join(root, 'stryker', f));
      symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
      writeFileSync(join(root, 'src', 'sandbox', 'python-fork-init.ts'), text.replace(/c3';/, "90c3';"));
      const r = tool(root, '--file', 'src/sandbox/python-fork-init.ts', '--list');
      expect(r.status).toBe(2);
      expect(r.stderr).toBe("python-mutants: src/sandbox/python-fork-init.ts's bytes are not the assembly of its source (or as/objcopy are missing)\n");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
