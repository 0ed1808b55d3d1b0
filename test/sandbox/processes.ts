/** Host-side views of sandboxed processes, for the attack tests (not a test file itself). */
import { readdirSync, readFileSync } from 'node:fs';

/** Host processes whose name (comm) is `marker`. */
export function processesNamed(marker: string): string[] {
  const found: string[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/comm`, 'utf8').trim() === marker) found.push(p);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Polls until `done()` or `ms` elapse; answers whether it became true. */
export async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (done()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A host process's real uid and gid and its supplementary groups, from /proc/<pid>/status. */
export function hostIds(pid: string): { uid: number; gid: number; groups: number[] } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => (status.match(new RegExp(`^${name}:[ \\t]*(.*)$`, 'm'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
  return { uid: field('Uid')[0], gid: field('Gid')[0], groups: field('Groups') };
}
