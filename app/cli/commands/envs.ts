import type { Registry } from '../../../src/core/registry';
import { describeParam } from '../../../src/core/params';

/** `arena envs [--json]`: the registered envs with roles, dynamics and params. */
export function envsCommand(registry: Registry, json: boolean): void {
  const envs = registry.allEnvs().map((env) => {
    const m = env.meta;
    return {
      id: m.id,
      description: m.description ?? '',
      roles: m.roles,
      dynamics: m.dynamics,
      chance: m.chance,
      information: m.information,
      utility: typeof m.utility === 'function' ? 'depends on params' : m.utility,
      maxLength: typeof m.maxLength === 'function' ? 'depends on params' : m.maxLength,
      params: Object.fromEntries(
        Object.entries(m.params).map(([k, s]) => [k, { ...s, check: undefined, allowed: describeParam(s) }]),
      ),
      encoder: env.encoder ? { size: env.encoder.size, numActions: env.encoder.numActions } : null,
      agents: [...new Set(registry.agentsFor(m.id).map((a) => a.name))],
    };
  });
  if (json) {
    process.stdout.write(JSON.stringify(envs, null, 2) + '\n');
    return;
  }
  for (const e of envs) {
    process.stdout.write(`${e.id}  ${e.description}\n`);
    process.stdout.write(`  roles: ${e.roles.map((r) => `${r.name}×${r.count}${r.team && r.team !== r.name ? ` (${r.team})` : ''}`).join(', ')}\n`);
    process.stdout.write(`  ${e.dynamics}, ${e.information} information, ${e.chance ? 'chance' : 'no chance'}, ${e.utility}\n`);
    for (const [k, p] of Object.entries(e.params)) {
      process.stdout.write(`  --params ${k}: ${p.allowed}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ''}${p.description ? ` — ${p.description}` : ''}\n`);
    }
    process.stdout.write(`  agents: ${e.agents.join(', ')}\n`);
  }
}
