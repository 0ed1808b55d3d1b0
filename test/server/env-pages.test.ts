/**
 * The built-in envs' page files (app/server/static-files.ts `createEnvPages`): an env's renderer
 * and its styles are served from envs/<env>/web/ at /envs/<env>/web/, and nothing else of an env's
 * folder (its sources, tasks and data) is reachable, however the path is spelled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEnvPages, defaultEnvsRoot } from '../../app/server/static-files';

const ROOT = resolve(__dirname, '..', '..');

async function serve(envsRoot: string): Promise<{ url: string; close: () => Promise<void> }> {
  const pages = createEnvPages(envsRoot);
  const server: Server = createServer((req, res) => {
    if (pages(req, res)) return;
    res.writeHead(404);
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(() => r())) };
}

/** A raw GET (no URL normalisation by the client, so `..` reaches the server as sent). */
function get(url: string, path: string, method = 'GET'): Promise<{ status: number; type: string | null; body: string }> {
  return new Promise((res, rej) => {
    const req = request(`${url}/`, { method, path }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => (body += c.toString()));
      r.on('end', () => res({ status: r.statusCode ?? 0, type: (r.headers['content-type'] as string | undefined) ?? null, body }));
    });
    req.on('error', rej);
    req.end();
  });
}

test("the package's renderers and their styles are served from envs/<env>/web/", async () => {
  expect(defaultEnvsRoot()).toBe(join(ROOT, 'envs'));
  const s = await serve(defaultEnvsRoot());
  try {
    for (const env of ['werewolf', 'countdown', 'deal-or-no-deal', 'code-repair', 'kernel-speedup']) {
      const js = await get(s.url, `/envs/${env}/web/renderer.js`);
      expect([env, js.status, js.type]).toEqual([env, 200, 'text/javascript; charset=utf-8']);
      expect(js.body).toBe(readFileSync(join(ROOT, 'envs', env, 'web', 'renderer.js'), 'utf8'));
      const css = await get(s.url, `/envs/${env}/web/renderer.css`);
      expect([env, css.status, css.type]).toEqual([env, 200, 'text/css; charset=utf-8']);
    }
    const head = await get(s.url, '/envs/werewolf/web/renderer.js', 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await get(s.url, '/envs/werewolf/web/renderer.js', 'POST')).status).toBe(404);
    // an env's sources are not page files
    expect((await get(s.url, '/envs/werewolf/index.ts')).status).toBe(404);
    expect((await get(s.url, '/envs/werewolf/web/../state.ts')).status).toBe(404);
  } finally {
    await s.close();
  }
});

test('nothing outside an env\'s web/ folder is reachable: .., encoded .., hidden files, unknown types, odd env names', async () => {
  const envs = mkdtempSync(join(tmpdir(), 'arena-env-pages-'));
  mkdirSync(join(envs, 'x', 'web', 'sub'), { recursive: true });
  writeFileSync(join(envs, 'x', 'web', 'ok.js'), 'export const ok = 1;\n');
  writeFileSync(join(envs, 'x', 'web', 'sub', 'deep.css'), 'p {}\n');
  writeFileSync(join(envs, 'x', 'web', '.hidden.js'), 'secret');
  writeFileSync(join(envs, 'x', 'web', 'source.ts'), 'secret');
  writeFileSync(join(envs, 'x', 'secret.json'), '{"secret":1}');
  writeFileSync(join(envs, 'secret.json'), '{"secret":2}');
  const s = await serve(envs);
  try {
    expect((await get(s.url, '/envs/x/web/ok.js')).body).toBe('export const ok = 1;\n');
    expect((await get(s.url, '/envs/x/web/sub/deep.css')).status).toBe(200);
    const refused = [
      '/envs/x/web/../secret.json',
      '/envs/x/web/%2e%2e/secret.json',
      '/envs/x/web/..%2fsecret.json',
      '/envs/x/web/sub/../../../secret.json',
      '/envs/x/web/.hidden.js',
      '/envs/x/web/source.ts',
      '/envs/x/secret.json',
      '/envs/x/web/',
      '/envs/x/web',
      '/envs/%2e%2e/web/ok.js',
      '/envs/X/web/ok.js',
      '/envs/x/web/ok.js%00',
      '/envs/x/web/%E0%A4%A',
    ];
    for (const path of refused) {
      const r = await get(s.url, path);
      expect([path, r.status, r.body.includes('secret')]).toEqual([path, 404, false]);
    }
  } finally {
    await s.close();
  }
});

test('the package ships every env\'s page files (package.json "files"), and no other file of an env folder through that entry', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status).toBe(0);
  const shipped = new Set((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
  const pages = readdirSync(join(ROOT, 'envs')).flatMap((e) => (existsSync(join(ROOT, 'envs', e, 'web')) ? readdirSync(join(ROOT, 'envs', e, 'web')).map((n) => `envs/${e}/web/${n}`) : []));
  expect(pages.length).toBeGreaterThanOrEqual(10);
  expect(pages.filter((p) => !shipped.has(p))).toEqual([]);
  expect([...shipped].filter((p) => /^envs\/[^/]+\/[^/]+\.ts$/.test(p))).toEqual([]);
}, 180_000);
