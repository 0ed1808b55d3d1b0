/** League config module paths: read from the config file's folder; planned leagues carry them relative to the working directory. */
import { join, resolve, sep } from 'node:path';
import { resolveModuleRef, withConfigPathsResolved, withResolvedModuleRefs } from '../../league/module-paths';

describe('config module paths', () => {
  test('a relative module path is read from the config folder; ids, absolute paths, #name and :{options} are kept', () => {
    expect(resolveModuleRef('./kuhn.js', '/cfg')).toBe(resolve('/cfg', 'kuhn.js'));
    expect(resolveModuleRef('./bots.js#greedy:{"eps":0.1}', '/cfg')).toBe(`${resolve('/cfg', 'bots.js')}#greedy:{"eps":0.1}`);
    expect(resolveModuleRef('random', '/cfg')).toBe('random');
    expect(resolveModuleRef('neural:{"checkpoint":"a.json"}', '/cfg')).toBe('neural:{"checkpoint":"a.json"}');
    expect(resolveModuleRef('/abs/env.js', '/cfg')).toBe('/abs/env.js');
    expect(resolveModuleRef('./kuhn.js', undefined)).toBe('./kuhn.js');
  });

  test('withResolvedModuleRefs resolves the env and every agent without changing its input', () => {
    const config = { env: './e.js', players: [{ agent: './a.js#x' }, { agent: 'random' }] };
    const out = withResolvedModuleRefs(config, '/cfg');
    expect(out).toEqual({ env: resolve('/cfg', 'e.js'), players: [{ agent: `${resolve('/cfg', 'a.js')}#x` }, { agent: 'random' }] });
    expect(config.env).toBe('./e.js');
  });

  test('planned leagues: paths inside the working directory become relative to it, others absolute, configDir dropped', () => {
    const cwd = process.cwd();
    const o = {
      config: { env: './examples/rock-paper-scissors.js', players: [{ agent: '../outside.js#b' }, { agent: 'counter-last' }] },
      configDir: cwd,
    };
    const out = withConfigPathsResolved(o);
    expect(out.configDir).toBeUndefined();
    expect(out.config.env).toBe(`.${sep}${join('examples', 'rock-paper-scissors.js')}`);
    expect(out.config.players[0].agent).toBe(`${resolve(cwd, '..', 'outside.js')}#b`);
    expect(out.config.players[1].agent).toBe('counter-last');
    const nested = withConfigPathsResolved({ config: { env: './rps.js', players: [] }, configDir: join(cwd, 'examples') });
    expect(nested.config.env).toBe(`.${sep}${join('examples', 'rps.js')}`);
    expect(withConfigPathsResolved({ config: o.config })).toEqual({ config: o.config });
  });
});
