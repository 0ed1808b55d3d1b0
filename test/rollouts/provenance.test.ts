/**
 * Rollout provenance (src/rollouts/provenance.ts): every record carries the env id, a hash of
 * the params, the env's prompt version and the package version; the hash and the version change
 * exactly when what they stand for changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultRegistry } from '../../app/catalog';
import type { EnvDefinition } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { collectRollouts, type RolloutRecord } from '../../src/rollouts/collect';
import { canonicalJson, paramsHash, promptVersion } from '../../src/rollouts/provenance';
import { scripted } from '../agents/llm/helpers';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('every record of a run carries env id, params hash, prompt version and package version', async () => {
  const env = defaultRegistry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({});
  const out: RolloutRecord[] = [];
  await collectRollouts({ env, params, agents: [scripted(env.meta.id, {}, 'random', 1), scripted(env.meta.id, {}, 'random', 2)], groups: 1, groupSize: 2, seed: 3 }, (r) => void out.push(...r));
  expect(out.length).toBeGreaterThan(0);
  for (const r of out) {
    expect(r.provenance).toEqual({ env: 'deal-or-no-deal-v1', paramsHash: paramsHash(params), promptVersion: promptVersion(env), packageVersion: VERSION });
  }
  expect(out[0].provenance.paramsHash).toMatch(/^sha256:[0-9a-f]{16}$/);
  expect(out[0].provenance.promptVersion).toMatch(/^sha256:[0-9a-f]{16}$/);
});

test('the params hash ignores key order and changes with any value', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
  expect(paramsHash({ a: 1, b: 'x' })).toBe(paramsHash({ b: 'x', a: 1 }));
  expect(paramsHash({ a: 1, b: 'x' })).not.toBe(paramsHash({ a: 2, b: 'x' }));
  expect(paramsHash({ a: { n: [1, 2] } })).not.toBe(paramsHash({ a: { n: [2, 1] } }));
});

test("the prompt version: the template's declared version, else a hash of its members, else default", () => {
  // the example env has no prompt template
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const base = (require('../../examples/rock-paper-scissors.js') as { env: EnvDefinition }).env;
  expect(promptVersion(normalizeEnv(base))).toBe('default');
  const a = promptVersion(normalizeEnv({ ...base, prompt: { system: () => 'You play p.' } }));
  const b = promptVersion(normalizeEnv({ ...base, prompt: { system: () => 'You play p well.' } }));
  expect(a).toMatch(/^sha256:[0-9a-f]{16}$/);
  expect(b).not.toBe(a);
  expect(promptVersion(normalizeEnv({ ...base, prompt: { version: 'dond-2', system: () => 'You play p.' } }))).toBe('dond-2');
});
