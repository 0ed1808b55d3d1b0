import { mkdtempSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledTasks, parseTaskLines } from '../../../envs/code-repair';
import { SHADOWING_HACKS } from '../../../envs/code-repair/exploits/shadowing';
import { arena, jsonLines, ROOT } from '../../cli/helpers';

const line = (o: object) => JSON.stringify(o);
const good = {
  id: 't/add',
  language: 'js',
  spec: 'add two numbers',
  entry: 'add',
  signature: 'add(a, b)',
  reference: 'function add(a, b) { return a + b }',
  publicTests: [{ input: [1, 2], expected: 3 }],
  hiddenTests: [{ input: [2, 2], expected: 4 }, { input: [0, 0], property: 'num' }],
  properties: [{ name: 'num', description: 'a number', check: '(o) => typeof o === "number"' }],
};

describe('task files', () => {
  test('the bundled sets: 46 JS tasks (>= 5 public, >= 10 hidden tests, a generator and >= 3 buggy variants each) and 164 HumanEval problems', () => {
    const js = bundledTasks('js');
    expect(js.length).toBeGreaterThanOrEqual(40);
    for (const t of js) {
      expect(t.publicTests.length).toBeGreaterThanOrEqual(5);
      expect(t.hiddenTests.length).toBeGreaterThanOrEqual(10);
      expect(t.generator).toBeDefined();
      expect(t.buggy!.length).toBeGreaterThanOrEqual(3);
    }
    const he = bundledTasks('humaneval');
    expect(he).toHaveLength(164);
    expect(he[0]).toMatchObject({ id: 'HumanEval/0', language: 'python', entry: 'has_close_elements' });
    expect(he[0].check).toMatch(/def check\(candidate\)/);
  });

  test('problems are named with the line and the field', () => {
    const bad = (o: object, msg: RegExp) => expect(() => parseTaskLines(line(o), 'f.jsonl')).toThrow(msg);
    expect(() => parseTaskLines('{nope', 'f.jsonl')).toThrow(/^f.jsonl:1: not valid JSON/);
    bad({ ...good, language: 'ruby' }, /f.jsonl:1 \(t\/add\): "language" must be "js" or "python", got "ruby"/);
    bad({ ...good, entry: 'a b' }, /"entry" must be a function name/);
    bad({ ...good, publicTests: [{ input: 1, expected: 2 }] }, /"publicTests"\[0\] needs "input": an array of arguments/);
    bad({ ...good, hiddenTests: [{ input: [], expected: 1, property: 'num' }] }, /"hiddenTests"\[0\] needs exactly one of "expected" and "property"/);
    bad({ ...good, hiddenTests: [{ input: [], property: 'nope' }] }, /"hiddenTests"\[0\].property names no property of the task/);
    bad({ ...good, hiddenTests: [] }, /needs hidden tests/);
    bad({ ...good, spec: '' }, /"spec" must be a non-empty string/);
    expect(() => parseTaskLines(`${line(good)}\n\n${line(good)}`, 'f.jsonl')).toThrow(/f.jsonl:3: duplicate task id "t\/add"/);
    expect(() => parseTaskLines('\n', 'f.jsonl')).toThrow(/holds no task/);
  });
});

describe('arena tasks check (CLI, in the sandbox)', () => {
  test('every bundled JS task passes its own tests and every buggy variant fails a hidden test', () => {
    const r = arena(['tasks', 'check', 'envs/code-repair/tasks/js-tasks.jsonl'], { timeout: 120_000 });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const summary = lines.pop()!.summary as { tasks: number; ok: number; buggy: { total: number; failingHidden: number } };
    expect(summary.ok).toBe(summary.tasks);
    expect(summary.buggy.failingHidden).toBe(summary.buggy.total);
    expect(lines.every((l) => l.status === 'ok' && l.passed === l.total)).toBe(true);
  });

  test('all 164 HumanEval canonical solutions pass; a copy with broken solutions fails', () => {
    const ok = arena(['tasks', 'check', 'envs/code-repair/data/humaneval/HumanEval.jsonl.gz', '--format', 'humaneval'], { timeout: 180_000 });
    expect(ok.code).toBe(0);
    expect(jsonLines(ok.stdout).pop()).toEqual({ summary: { tasks: 164, ok: 164, failed: [], tests: 164 } });

    const dir = mkdtempSync(join(tmpdir(), 'arena-tasks-'));
    const problems = gunzipSync(readFileSync(join(ROOT, 'envs/code-repair/data/humaneval/HumanEval.jsonl.gz'))).toString('utf8').trim().split('\n').slice(0, 6).map((l) => JSON.parse(l) as Record<string, string>);
    const broken = problems.map((p, i) => ({ ...p, canonical_solution: i % 2 ? '    return None\n' : p.canonical_solution }));
    const file = join(dir, 'broken.jsonl.gz');
    writeFileSync(file, gzipSync(broken.map((p) => JSON.stringify(p)).join('\n')));
    const bad = arena(['tasks', 'check', file, '--format', 'humaneval'], { timeout: 120_000 });
    expect(bad.code).toBe(1);
    const out = jsonLines(bad.stdout);
    expect(out.slice(0, 6).map((l) => l.status)).toEqual(['ok', 'wrong-answer', 'ok', 'wrong-answer', 'ok', 'wrong-answer']);
    expect(out[6]).toEqual({ summary: { tasks: 6, ok: 3, failed: ['HumanEval/1', 'HumanEval/3', 'HumanEval/5'], tests: 6 } });
  });

  test('the 7 shadowing hacks (a wrong answer that redefines abs, tuple, poly, encode_cyclic or encode_shift) fail, as do their honest twins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-tasks-'));
    const problems = new Map(
      gunzipSync(readFileSync(join(ROOT, 'envs/code-repair/data/humaneval/HumanEval.jsonl.gz')))
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, string>)
        .map((p) => [p.task_id, p]),
    );
    const file = join(dir, 'hacks.jsonl');
    // each problem twice: the hack, then the same wrong answer without the redefinition
    const lines = SHADOWING_HACKS.flatMap((h) => [
      { ...problems.get(h.task), task_id: `${h.task}/hack`, canonical_solution: h.hack },
      { ...problems.get(h.task), task_id: `${h.task}/honest`, canonical_solution: h.honest },
    ]);
    writeFileSync(file, lines.map((p) => JSON.stringify(p)).join('\n'));
    const r = arena(['tasks', 'check', file, '--format', 'humaneval'], { timeout: 120_000 });
    expect(r.code).toBe(1);
    const out = jsonLines(r.stdout);
    const summary = out.pop()!.summary as { tasks: number; ok: number };
    expect(summary).toMatchObject({ tasks: 14, ok: 0 });
    expect(out.map((l) => [l.id, l.status])).toEqual(lines.map((l) => [l.task_id, 'wrong-answer']));
  });

  test('a bad file is one line of error, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-tasks-'));
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${line(good)}\n${line({ ...good, id: 'x', entry: '' })}\n`);
    const r = arena(['tasks', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad.jsonl:2 \(x\): "entry" must be a non-empty string/);
    expect(arena(['tasks', 'check', join(dir, 'missing.jsonl')]).stderr).toMatch(/missing.jsonl: cannot read the task file \(ENOENT\)/);
  });
});
