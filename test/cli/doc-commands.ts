/**
 * The `arena` commands the documentation shows (README.md and docs/*.md), for
 * test/cli/readme-commands.test.ts: every line of a shell block that starts with `npx arena` or
 * `arena` (continuation lines joined, comments cut), and every inline code span that starts
 * with `npx arena `, in file order (README first, then docs/ alphabetically), so that commands
 * which read what an earlier one wrote (a golden file, a database) run after it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One documented command. */
export interface DocCommand {
  /** File relative to the repo root. */
  file: string;
  line: number;
  /** The command as a reader would type it, starting with `npx arena `. */
  text: string;
}

/** The documentation files, in run order. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Cuts a shell comment (a `#` after whitespace, outside quotes). */
function cutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** Every documented command of one file's text. */
export function commandsOf(file: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = text.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const open = /^\s*```(\w*)/.exec(raw);
    if (open) {
      fence = fence === null ? open[1] || 'text' : null;
      continue;
    }
    if (fence === 'sh' || fence === 'bash' || fence === 'shell') {
      const start = raw.trim();
      if (!/^(npx )?arena /.test(start)) continue;
      let joined = cutComment(start);
      const line = i + 1;
      while (joined.endsWith('\\') && i + 1 < lines.length) joined = `${joined.slice(0, -1).trimEnd()} ${cutComment(lines[++i].trim())}`;
      out.push({ file, line, text: joined.startsWith('npx ') ? joined : `npx ${joined}` });
    } else if (fence === null) {
      for (const m of raw.matchAll(/`(npx arena [^`]+)`/g)) out.push({ file, line: i + 1, text: m[1].trim() });
    }
  }
  return out;
}

/** Every documented command, in run order. */
export function docCommands(root: string): DocCommand[] {
  return docFiles(root).flatMap((f) => commandsOf(f, readFileSync(join(root, f), 'utf8')));
}

/** Shell-like split: single quotes keep their content (the docs quote JSON with them). */
export function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}
