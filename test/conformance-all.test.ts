/**
 * The conformance kit over every registered env and every example module in examples/, with
 * default params: a new env or example that breaks the contract (a leak, nondeterminism, a
 * view stream that depends on private events...) fails here even if it has no tests of its own.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRegistry } from '../app/catalog';
import { checkEnv, formatReport } from '../src/core/conformance/check-env';

const ROOT = resolve(__dirname, '..');
const registry = createRegistry();
const examples = readdirSync(join(ROOT, 'examples')).filter((f) => /\.(c|m)?js$/.test(f));

describe('conformance of everything registered', () => {
  test('the catalog registers envs and examples/ holds env modules', () => {
    expect(registry.envIds().length).toBeGreaterThanOrEqual(3);
    expect(examples).toContain('rock-paper-scissors.js');
  });

  test.each(registry.envIds())('registered env %s passes the kit', (id) => {
    const report = checkEnv(registry.env(id), { episodes: 5, seed: 7 });
    if (!report.ok) console.log(formatReport(report));
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'view-stream')?.skipped).toBeFalsy();
  });

  test.each(examples)('examples/%s: every env it exports passes the kit', async (file) => {
    const local = createRegistry();
    const { envs } = await local.loadModule(join(ROOT, 'examples', file));
    expect(envs.length).toBeGreaterThan(0);
    for (const id of envs) {
      const report = checkEnv(local.env(id), { episodes: 10, seed: 7 });
      if (!report.ok) console.log(formatReport(report));
      expect(report.ok).toBe(true);
    }
  });
});
