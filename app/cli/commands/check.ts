import { checkEnv, formatReport } from '../../../src/core/conformance/check-env';
import { parseGolden, type Golden } from '../../../src/core/conformance/golden';
import { heartbeat } from '../../../src/core/heartbeat';
import type { Registry } from '../../../src/core/registry';
import { checkExploits } from '../../../src/match/exploit-check';
import { oneLine, parseJsonOption, readOptionFile, UsageError } from '../options';

export interface CheckArgs {
  params?: string;
  episodes: number;
  seed: number;
  golden?: string[];
  json?: boolean;
  /** Play the env's exploit fixtures through its real reward path (default true; `--no-exploits`). */
  exploits?: boolean;
}

/** `arena check <env>`: runs the conformance kit; returns the exit code (0 only if every check passes). */
export async function checkCommand(registry: Registry, ref: string, args: CheckArgs): Promise<number> {
  const env = await registry.resolveEnv(ref);
  heartbeat()?.context({ command: 'check', json: !!args.json, env: env.meta.id });
  const goldens: { name: string; golden: Golden }[] = (args.golden ?? []).map((file) => {
    const text = readOptionFile('--golden', file);
    try {
      return { name: file, golden: parseGolden(text) };
    } catch (e) {
      throw new UsageError(`--golden: ${file}: ${oneLine((e as Error).message, 200)}`);
    }
  });
  const report = checkEnv(env, { params: parseJsonOption('--params', args.params), episodes: args.episodes, seed: args.seed, goldens });
  if (args.exploits !== false && env.exploits?.length) {
    // The reward path runs programs in the sandbox: progress on stderr, one line per fixture.
    const progress = !args.json && process.stderr.isTTY;
    const exploits = await checkExploits(env, {
      effects: registry.effects(),
      onVerdict: (v, i, n) => progress && process.stderr.write(`  exploit ${i + 1}/${n} ${v.name}: ${v.held ? 'held' : 'PAID'}\n`),
    });
    if (exploits) {
      report.checks.push(exploits);
      report.ok = report.ok && exploits.ok;
    }
  }
  process.stdout.write(args.json ? JSON.stringify(report) + '\n' : formatReport(report) + '\n');
  return report.ok ? 0 : 1;
}
