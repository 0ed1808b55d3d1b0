import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena, jsonLines } from '../../cli/helpers';

describe('code-repair-v1 from the CLI', () => {
  test('arena check passes in both modes (the exploit fixtures have a test of their own: exploits.test.ts)', () => {
    for (const params of ['{"mode":"repair"}', '{"mode":"generate"}']) {
      const r = arena(['check', 'code-repair-v1', '--params', params, '--episodes', '8', '--no-exploits']);
      expect(r.stdout).toMatch(/code-repair-v1: PASS/);
      expect(r.code).toBe(0);
    }
  });

  test('play with the baselines, golden, and replay --rerun: same results again; a tampered record is reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-cr-'));
    const play = arena(['play', 'code-repair-v1', '--params', '{"mode":"repair"}', '--agents', 'mutation-fixer,fuzz-auditor', '--episodes', '3', '--json'], { timeout: 120_000 });
    expect(play.code).toBe(0);
    const lines = jsonLines(play.stdout);
    expect(lines).toHaveLength(4);
    expect(lines.slice(0, 3).every((l) => l.code === 'ok')).toBe(true);

    const golden = join(dir, 'g.jsonl');
    const g = arena(['golden', 'code-repair-v1', '--agents', 'echo-fixer,random-auditor', '--params', '{"task":"js/gcd-lcm","variant":1}', '--seed', '4', '--out', golden]);
    expect(g.code).toBe(0);
    const again = arena(['replay', 'code-repair-v1', '--actions', golden, '--rerun', '--json'], { timeout: 60_000 });
    expect(again.code).toBe(0);
    const out = jsonLines(again.stdout);
    expect(out.filter((l) => l.rerun === 'same').length).toBeGreaterThanOrEqual(3);
    expect(out[out.length - 1]).toEqual({ rerun: { differences: 0 } });

    // change one recorded output: the rerun finds it, names where, and exits 1
    const text = readFileSync(golden, 'utf8').split('\n');
    const i = text.findIndex((l) => l.includes('"-1":{"runs"'));
    const step = JSON.parse(text[i]) as { actions: { '-1': { runs: { tests: { actual?: unknown }[] }[] } } };
    const t = step.actions['-1'].runs[0].tests.find((x) => x.actual !== undefined)!;
    t.actual = 'tampered';
    text[i] = JSON.stringify(step);
    const tampered = join(dir, 't.jsonl');
    writeFileSync(tampered, text.join('\n'));
    const bad = arena(['replay', 'code-repair-v1', '--actions', tampered, '--rerun']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/DIFFERENT: \$\.runs\[0\]\.tests\[\d+\]\.actual: recorded "tampered", now/);
    expect(bad.stdout).toMatch(/rerun: 1 effect\(s\) gave a different result/);
  });
});
