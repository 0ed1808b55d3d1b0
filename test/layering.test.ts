/**
 * The dependency arrows of docs/architecture.md, checked on the import statements: src/core
 * imports no env, agent, RxJS or socket.io; envs import src/core and their own folder; agents
 * import src/core, agents/ and an env's public index only; league never imports the server or
 * the CLI.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) return files(rel);
    return /\.ts$/.test(name) ? [rel] : [];
  });
}

/** Import targets of a file: project-relative paths for relative imports, package names otherwise. */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s+'([^']+)'|require\('([^']+)'\)/g)) {
    const spec = m[1] ?? m[2];
    out.push(spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec);
  }
  return out;
}

function violations(dir: string, allowed: (target: string, file: string) => boolean): string[] {
  return files(dir).flatMap((f) => imports(f).filter((t) => !allowed(t, f)).map((t) => `${f} imports ${t}`));
}

const pkg = (t: string) => !t.includes('/') || t.startsWith('node:') || t.startsWith('@');
const under = (t: string, dir: string) => t === dir || t.startsWith(`${dir}/`);

describe('layering', () => {
  test('src/core imports only src/core, Node and small packages (no env, agent, RxJS, socket.io)', () => {
    expect(violations('src/core', (t) => (pkg(t) ? !/^(rxjs|socket\.io)/.test(t) : under(t, 'src/core')))).toEqual([]);
  });

  test('envs import src/core and their own folder only', () => {
    const own = (f: string) => (f.split('/').length === 2 ? null : f.split('/').slice(0, 2).join('/'));
    // envs/index.ts (the built-in list) imports each env's public index
    expect(violations('envs', (t, f) => pkg(t) || under(t, 'src/core') || (own(f) ? under(t, own(f)!) : /^envs\/[^/]+(\/index)?$/.test(t)))).toEqual([]);
  });

  test("agents import src/core, agents/ and an env's public index only", () => {
    expect(violations('agents', (t) => pkg(t) || under(t, 'src/core') || under(t, 'agents') || /^envs\/[^/]+(\/index)?$/.test(t))).toEqual([]);
  });

  test('src/scale (Redis plumbing) imports src/core, src/bus and packages only', () => {
    expect(violations('src/scale', (t) => pkg(t) || under(t, 'src/core') || under(t, 'src/bus') || under(t, 'src/scale'))).toEqual([]);
  });

  test('league imports neither the server nor the CLI', () => {
    expect(violations('league', (t) => pkg(t) || !(under(t, 'src/server') || under(t, 'src/cli')))).toEqual([]);
  });
});
