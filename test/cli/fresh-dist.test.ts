/** The guard that keeps tests of the compiled bin from running stale code (test/fixtures/built.ts). */
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, staleSource } from '../fixtures/built';

/** A project with src/a.ts and src/sub/b.ts, and a build script that compiles by copying (counting its runs). */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'arena-built-'));
  mkdirSync(join(root, 'src', 'sub'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'a');
  writeFileSync(join(root, 'src', 'sub', 'b.ts'), 'b');
  writeFileSync(join(root, 'src', 'types.d.ts'), 'declare');
  writeFileSync(
    join(root, 'build.js'),
    `const fs = require('fs'); const path = require('path');
     for (const f of ['a', 'sub/b']) { fs.mkdirSync(path.join('dist/src', path.dirname(f)), { recursive: true }); fs.copyFileSync('src/' + f + '.ts', 'dist/src/' + f + '.js'); }
     fs.appendFileSync('builds.txt', 'x');
     if (fs.existsSync('fail')) { console.error('type error'); process.exit(1); }`,
  );
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { build: 'node build.js' } }));
  return root;
}
const builds = (root: string) => {
  try {
    return readFileSync(join(root, 'builds.txt'), 'utf8').length;
  } catch {
    return 0;
  }
};

test('staleSource names a source without output or newer than it; declarations are not compiled', () => {
  const root = project();
  expect(staleSource(root, ['src', 'missing'])).toBe('src/a.ts');
  mkdirSync(join(root, 'dist', 'src', 'sub'), { recursive: true });
  writeFileSync(join(root, 'dist', 'src', 'a.js'), 'a');
  expect(staleSource(root, ['src'])).toBe('src/sub/b.ts');
  writeFileSync(join(root, 'dist', 'src', 'sub', 'b.js'), 'b');
  expect(staleSource(root, ['src'])).toBeNull();
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'dist', 'src', 'sub', 'b.js'), past, past);
  expect(staleSource(root, ['src'])).toBe('src/sub/b.ts');
});

test('ensureBuilt builds only when stale, and reports a failed build', () => {
  const root = project();
  ensureBuilt(root);
  expect(builds(root)).toBe(1);
  expect(readFileSync(join(root, 'dist', 'src', 'sub', 'b.js'), 'utf8')).toBe('b');
  ensureBuilt(root);
  expect(builds(root)).toBe(1);
  const future = new Date(Date.now() + 60_000);
  writeFileSync(join(root, 'src', 'a.ts'), 'a2');
  utimesSync(join(root, 'src', 'a.ts'), future, future);
  writeFileSync(join(root, 'fail'), '');
  expect(() => ensureBuilt(root)).toThrow(/^dist\/ is stale \(src\/a\.ts\) and `npm run build` failed:\n[\s\S]*type error/);
  expect(staleSource(root, ['src'])).toBe('src/a.ts'); // (the copy is older than the future-dated source)
});
