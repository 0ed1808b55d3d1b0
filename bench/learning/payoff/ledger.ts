/**
 * The payoff experiment's record of finished steps: one JSON file per step in the run folder,
 * written atomically (temp file + rename), so a killed run never leaves a half-written result
 * and a rerun skips every step already recorded.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class Ledger {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, 'ledger'), { recursive: true });
  }

  private file(key: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(key)) throw new Error(`ledger: bad key "${key}"`);
    return join(this.dir, 'ledger', `${key}.json`);
  }

  /** The recorded value of a step, or undefined. */
  get<T>(key: string): T | undefined {
    const f = this.file(key);
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : undefined;
  }

  has(key: string): boolean {
    return existsSync(this.file(key));
  }

  /** Records a step's value (atomically). */
  put(key: string, value: unknown): void {
    const f = this.file(key);
    writeFileSync(`${f}.tmp`, JSON.stringify(value, null, 1));
    renameSync(`${f}.tmp`, f);
  }

  /** Adds `seconds` to a running CPU tally (time spent in steps that were stopped and resumed). */
  addSpent(key: string, seconds: number): void {
    this.put(`spent-${key}`, (this.get<number>(`spent-${key}`) ?? 0) + seconds);
  }
}
