/**
 * The page is type-checked against the server's sources (web/tsconfig.json: `// @ts-check`
 * JSDoc types imported from src/core/events.ts, app/server/protocol.ts, api-types.ts...), so a
 * protocol change the page does not follow breaks the build. Checked here with the compiler
 * API: the page as it is passes; the page against a changed protocol fails in the page's files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const WEB = join(ROOT, 'web');

/** Parsed source files shared by the three programs (all but the edited one are the same). */
const parsed = new Map<string, ts.SourceFile>();
let previous: ts.Program | undefined;

function webProgram(replace: Record<string, (text: string) => string> = {}): readonly ts.Diagnostic[] {
  const configPath = join(WEB, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!config) throw new Error('web/tsconfig.json did not parse');
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => {
    const text = read(file);
    const edit = replace[resolve(file)];
    return text !== undefined && edit ? edit(text) : text;
  };
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError, create) => {
    const edit = replace[resolve(file)];
    if (edit) return ts.createSourceFile(file, edit(readFileSync(file, 'utf8')), lang);
    let sf = parsed.get(file);
    if (!sf) {
      sf = getSourceFile(file, lang, onError, create);
      if (sf) parsed.set(file, sf);
    }
    return sf;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, oldProgram: previous });
  previous = program;
  return ts.getPreEmitDiagnostics(program);
}

const where = (d: ts.Diagnostic) => (d.file ? `${d.file.fileName.slice(ROOT.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}` : ts.flattenDiagnosticMessageText(d.messageText, ' '));

test('every module of the page is // @ts-check', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.js')) files.push(join(dir, e.name));
    }
  };
  walk(join(WEB, 'js'));
  expect(files.length).toBeGreaterThan(15);
  for (const f of files) expect(`${f.slice(ROOT.length + 1)}: ${readFileSync(f, 'utf8').split('\n')[0]}`).toBe(`${f.slice(ROOT.length + 1)}: // @ts-check`);
});

test('the page type-checks against the server sources; a protocol change it does not follow fails it', () => {
  expect(webProgram().map(where)).toEqual([]);
  const protocol = join(ROOT, 'app', 'server', 'protocol.ts');
  // the join reply's views and an event's caption renamed on the server only
  const changed = webProgram({ [protocol]: (t) => t.replace('  views: ViewOption[];', '  viewOptions: ViewOption[];').replace('MatchEvent & { caption?: string }', 'MatchEvent & { words?: string }') }).map(where);
  expect(changed.some((d) => d.startsWith('web/js/match-view.js') && /views/.test(d))).toBe(true);
  expect(changed.some((d) => d.startsWith('web/js/') && /caption/.test(d))).toBe(true);
  // and a core event field the page reads
  const events = join(ROOT, 'src', 'core', 'events.ts');
  const renamed = webProgram({ [events]: (t) => renameOnce(t, '  toAct: number[];\n', '  acting: number[];\n') }).map(where);
  expect(renamed.some((d) => d.startsWith('web/js/') && /toAct/.test(d))).toBe(true);
}, 240_000);

/** `text` with `from` replaced by `to`, failing when `from` is not there (a rename the test means to make). */
function renameOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the source no longer contains ${JSON.stringify(from)}: update the test`);
  return text.replace(from, to);
}
