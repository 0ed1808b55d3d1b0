/**
 * The dependency table of docs/architecture.md ("Layout and dependency direction"), checked on the
 * import statements of every source file: each folder of src/, envs/, agents/, league/, app/,
 * bench/ and web/ has one rule naming the folders and packages it may import and why, so a wrong
 * arrow fails with the rule's reason; a folder without a rule fails too. Above the rules stands
 * the table of floors (FLOORS), from the ground up: src/core; envs (each env's definition, its
 * agents and its registration); the generic agents; the engine (the rest of src/); league; the
 * applications (app/: catalog, server, client, cli, the package entry); bench. No import runs
 * from a floor to a higher one. Inside an env folder the arrows run one way too: definition <-
 * agents/ <- index.ts (the public index and registration) <- envs/index.ts. web/ stands apart
 * (the browser page: it shares the server's types, never its code). A second test finds import
 * circles between files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function files(dir: string, ext = /\.ts$/): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) return files(rel, ext);
    return ext.test(name) && !name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The text of a file without its comment lines (JSDoc examples name imports that are not). */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .filter((l) => !/^\s*(\*|\/\*|\/\/)/.test(l))
    .join('\n');
}

const project = (file: string, spec: string) => (spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.(js|ts)$/, '') : spec);

/** Import targets of a file: project-relative paths (no extension) for relative imports, package names otherwise. */
function imports(file: string, text: string = code(file)): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s+'([^']+)'|require\('([^']+)'\)/g)) {
    out.push(project(file, m[1] ?? m[2]));
  }
  return out;
}

/** JSDoc type imports of a web file: `import('../../app/server/api-types')`. */
function typeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/import\('([^']+)'\)/g)].map((m) => project(file, m[1]));
}

const isPackage = (t: string) => !t.startsWith('src/') && !/^(envs|agents|league|app|bench|web|test|examples)(\/|$)/.test(t);
const under = (t: string, ...dirs: string[]) => dirs.some((d) => t === d || t.startsWith(`${d}/`));
/** `under` for a rule's `from`, where a `*` segment stands for any one folder name (the agents of every env: envs, any env, agents). */
const within = (t: string, from: string) => {
  const [ts, fs] = [t.split('/'), from.split('/')];
  return ts.length >= fs.length && fs.every((seg, i) => seg === '*' || seg === ts[i]);
};
/** The env folder (`envs/<env>`) a project path lies in. */
const envOf = (t: string) => t.split('/').slice(0, 2).join('/');
/** An env's public index, as its own files name it: the folder itself or its index.ts. */
const isIndexOf = (env: string, t: string) => t === env || t === `${env}/index`;
/** An env's public index (`envs/<id>` or `envs/<id>/index`): what agents, the catalog and the CLI may import of an env. */
const envIndex = (t: string) => /^envs\/[^/]+(\/index)?$/.test(t);
/** Packages that cost seconds to load or need a service: only the floors that use them may import them. */
const HEAVY = ['socket.io', 'socket.io-client', 'ws', 'better-sqlite3', '@tensorflow/', 'bullmq', 'ioredis', 'isolated-vm', 'openai'];
const heavy = (t: string) => HEAVY.some((h) => (h.endsWith('/') ? t.startsWith(h) : t === h || t.startsWith(`${h}/`)));
/** Package rule: any package but the heavy ones, except those listed. */
const lightBut = (...allowed: string[]) => (t: string) => !heavy(t) || allowed.some((a) => t === a || t.startsWith(a));

/** The engine floor's folders. */
const ENGINE = ['src/bus', 'src/store', 'src/sandbox', 'src/match', 'src/train', 'src/scale', 'src/rollouts'];

/**
 * The floors of the house, from the ground (0) up: a file may import its own floor's folders (as
 * its rule below allows) and the floors under it, never a floor above. Every top-level source
 * folder and every folder of src/ and app/ stands on one floor.
 */
const FLOORS: [folder: string, floor: number, why: string][] = [
  ['src/core', 0, 'the contracts: the ground every other floor stands on'],
  ['src/package-root', 0, 'finds the package folder from any floor'],
  ['envs', 1, 'the envs, on the contracts alone: each env folder holds its definition, its agents and its registration'],
  ['agents', 2, 'the generic agents play every env through the contracts'],
  ...ENGINE.map((d): [string, number, string] => [d, 3, 'the engine plays, stores, trains and sandboxes matches of any env']),
  ['league', 4, 'leagues and tournaments schedule matches on the engine'],
  ['app/catalog', 5, 'the applications: the built-in catalog'],
  ['app/server', 5, 'the applications: the servers'],
  ['app/client', 5, 'the applications: the seat client SDK'],
  ['app/cli', 5, 'the applications: the command line'],
  ['app/index', 5, 'the applications: the full package entry'],
  ['bench', 6, 'benchmarks measure every floor'],
];
/** The floor entry of a project path: the longest folder it lies under. */
const floorOf = (t: string) => FLOORS.filter(([d]) => under(t, d)).sort((a, b) => b[0].length - a[0].length)[0];

interface Rule {
  /** A folder or file (without .ts) of the project. */
  from: string;
  /** Why: printed with every violation. */
  reason: string;
  /** Project targets it may import (its own folder included where it may). */
  may: (target: string, file: string) => boolean;
  /** Packages it may import. */
  packages: (pkg: string) => boolean;
}

const RULES: Rule[] = [
  {
    from: 'src/core',
    reason: "the contracts every env and agent author loads (`selfplay-arena/core`): nothing of the project outside itself, no package but Node's and seedrandom",
    may: (t) => under(t, 'src/core'),
    packages: (t) => t.startsWith('node:') || t === 'seedrandom',
  },
  {
    from: 'src/package-root',
    reason: 'finds the package folder: used from every floor, so it imports nothing of the project',
    may: () => false,
    packages: (t) => t.startsWith('node:'),
  },
  {
    from: 'envs',
    reason: "an env's definition sees the contracts and its own folder, never its agents (agents/) or its public index (index.ts imports both), so it can be read, tested and published alone",
    may: (t, f) => under(t, 'src/core') || (under(t, envOf(f)) && !under(t, `${envOf(f)}/agents`) && !isIndexOf(envOf(f), t)),
    packages: lightBut(),
  },
  {
    from: 'envs/*/agents',
    reason: "an env's agents see the contracts and their own env's modules, never its public index (it imports them: a circle), another env, the generic agents or the engine",
    may: (t, f) => under(t, 'src/core') || (under(t, envOf(f)) && !isIndexOf(envOf(f), t)),
    packages: lightBut(),
  },
  {
    from: 'envs/*/index',
    reason: "an env's public index re-exports what tools and tests may use of its own folder and exports the env's one registration object (definition, agents, effect handlers)",
    may: (t, f) => under(t, 'src/core', envOf(f)),
    packages: lightBut(),
  },
  {
    from: 'envs/index',
    reason: "the list of built-in envs: one line per env, each naming the env's public index (envs/<env>/index.ts)",
    may: (t) => envIndex(t) && t !== 'envs/index',
    packages: () => false,
  },
  {
    from: 'agents',
    reason: 'a generic agent plays every env through the contracts: it sees src/core and the other generic agents, never an env (env baselines live in envs/<env>/agents/) or the engine',
    may: (t) => under(t, 'src/core', 'agents'),
    packages: (t) => lightBut()(t) || t === 'openai',
  },
  {
    from: 'src/bus',
    reason: 'the event bus carries the contracts\' events: it knows nothing above src/core',
    may: (t) => under(t, 'src/core', 'src/bus'),
    packages: lightBut(),
  },
  {
    from: 'src/store',
    reason: 'the store keeps records: it knows the contracts and SQLite, not the engine that makes the records',
    may: (t) => under(t, 'src/core', 'src/store'),
    packages: lightBut('better-sqlite3'),
  },
  {
    from: 'src/sandbox',
    reason: 'the sandbox runs untrusted programs: the smaller what it loads, the smaller its attack surface',
    may: (t) => under(t, 'src/core', 'src/sandbox', 'src/package-root'),
    packages: lightBut('isolated-vm'),
  },
  {
    from: 'src/match',
    reason: 'the match runner is the engine\'s centre: contracts and the bus, nothing of training, storage, leagues or servers',
    may: (t) => under(t, 'src/core', 'src/bus', 'src/match'),
    packages: lightBut(),
  },
  {
    from: 'src/train',
    reason: 'training plays matches (src/match) and reports on the bus; it knows no league, store, server or CLI',
    may: (t) => under(t, 'src/core', 'src/bus', 'src/match', 'src/train'),
    packages: lightBut('@tensorflow/'),
  },
  {
    from: 'src/scale',
    reason: 'Redis plumbing (connections, keys, live feed) under the league\'s scheduler: contracts and the bus only',
    may: (t) => under(t, 'src/core', 'src/bus', 'src/scale'),
    packages: lightBut('ioredis'),
  },
  {
    from: 'src/rollouts',
    reason: "rollouts for LLM trainers play matches and read a talking agent's records through the core's contract (src/core/chat-records.ts), nothing of agents, leagues, storage or servers",
    may: (t) => under(t, 'src/core', 'src/match', 'src/train', 'src/rollouts', 'src/package-root'),
    packages: lightBut(),
  },
  {
    from: 'league',
    reason: 'leagues and tournaments stand on the engine; the applications (CLI, servers, catalog, entry points) stand on them, never the other way',
    may: (t) => under(t, 'league', 'src/core', ...ENGINE.filter((d) => d !== 'src/rollouts' && d !== 'src/sandbox')),
    packages: lightBut('bullmq', 'ioredis'),
  },
  {
    from: 'app/catalog',
    reason: "the catalog registers the built-ins: the envs of envs/index.ts (each with its agents and effect handlers), the generic agents of agents/index.ts, the sandbox and the neural agent; never one env's folder",
    may: (t) => under(t, 'src/core', 'src/sandbox', 'src/train', 'agents/index', 'envs/index'),
    packages: lightBut(),
  },
  {
    from: 'app/server',
    reason: 'the servers are applications over the engine, leagues and the catalog; the CLI starts them, they never load the CLI',
    may: (t) => under(t, 'app/server', 'src/core', 'app/catalog', 'src/package-root', 'league', ...ENGINE),
    packages: (t) => !/^(@tensorflow\/|isolated-vm|openai)/.test(t),
  },
  {
    from: 'app/client',
    reason: "the seat client SDK runs in a player's process: the contracts and the server's wire protocol (app/server/**/*-protocol), none of the server's code",
    may: (t) => under(t, 'src/core', 'app/client') || /^app\/server\/(.*\/)?[a-z-]*protocol$/.test(t),
    packages: (t) => t.startsWith('node:') || t === 'socket.io-client',
  },
  {
    from: 'app/cli',
    reason: "the CLI is the top application: it may use every floor, but an env's internals only through its public index",
    may: (t) => !under(t, 'bench', 'test', 'web', 'app/index') && (!under(t, 'envs') || envIndex(t)) && (!under(t, 'agents') || /^agents(\/[^/]+)?(\/index)?$/.test(t)),
    packages: () => true,
  },
  {
    from: 'app/index',
    reason: 'the full package entry re-exports the public API of every floor below the CLI',
    may: (t) => !under(t, 'app/cli', 'bench', 'test', 'web'),
    packages: () => true,
  },
  {
    from: 'bench',
    reason: 'benchmarks measure the library in-process and the CLI as a process: they import anything but the CLI and the tests',
    may: (t) => !under(t, 'app/cli', 'test', 'web'),
    packages: () => true,
  },
];

/** The rule of a file: the longest `from` it lies under. */
function ruleOf(file: string): Rule | undefined {
  const f = file.replace(/\.ts$/, '');
  return RULES.filter((r) => within(f, r.from)).sort((a, b) => b.from.length - a.from.length)[0];
}

/** Every import of one file (`text`: its code) that its rule forbids, each with the rule's reason. */
function violationsOf(f: string, text: string = code(f)): string[] {
  const rule = ruleOf(f);
  if (!rule) return [`${f}: no rule in test/layering.test.ts covers it`];
  return imports(f, text)
    .filter((t) => (isPackage(t) ? !t.startsWith('node:') && !rule.packages(t) : !rule.may(t, f)))
    .map((t) => `${f} imports ${t}: ${rule.from} — ${rule.reason}`);
}

/** Every import of `dir`'s files that its rule forbids. */
const violations = (dir: string): string[] => files(dir).flatMap((f) => violationsOf(f));

/** Every import of one file that runs up to a higher floor, with both floors' reasons. */
function upArrowsOf(f: string, text: string = code(f)): string[] {
  const from = floorOf(f.replace(/\.ts$/, ''));
  if (!from) return [`${f}: stands on no floor of FLOORS in test/layering.test.ts`];
  return imports(f, text)
    .filter((t) => !isPackage(t))
    .flatMap((t) => {
      const to = floorOf(t);
      return to && to[1] > from[1] ? [`${f} imports ${t}: floor ${from[1]} (${from[0]}: ${from[2]}) may not import floor ${to[1]} (${to[0]}: ${to[2]})`] : [];
    });
}

describe('layering: the whole table', () => {
  test.each(['src', 'app'])('every folder and file of %s/ has a rule and a floor', (top) => {
    const entries = readdirSync(join(ROOT, top)).map((n) => `${top}/${n.replace(/\.ts$/, '')}`);
    expect(entries.filter((e) => !RULES.some((r) => r.from === e))).toEqual([]);
    expect(entries.filter((e) => !FLOORS.some(([d]) => d === e))).toEqual([]);
  });

  test.each(['src', 'envs', 'agents', 'league', 'app', 'bench'])('%s imports only what its rule allows', (dir) => {
    expect(violations(dir)).toEqual([]);
  });

  test.each(['src', 'envs', 'agents', 'league', 'app', 'bench'])('no file of %s imports a higher floor', (dir) => {
    expect(files(dir).flatMap((f) => upArrowsOf(f))).toEqual([]);
  });

  test('the top of the house: every top-level source folder is src/, envs, agents, league, app, bench, web or outside the build', () => {
    const build = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;
    expect(build.filter((d) => !['src', 'envs', 'agents', 'league', 'app', 'bench'].includes(d))).toEqual([]);
  });

  test('web/ and the envs\' renderers (envs/<env>/web/) import web/ and browser packages at run time (the page imports a renderer by its URL when its env is drawn); their JSDoc types come from the wire and public type files', () => {
    const BROWSER = ['socket.io-client', 'chart.js', 'diff'];
    const reason = 'the page runs in the browser: it shares the server\'s wire types and the envs\' observation types, never their code, and never the CLI, store, sandbox or agents';
    const pageFiles = [...files('web', /\.js$/), ...readdirSync(join(ROOT, 'envs')).flatMap((e) => (existsSync(join(ROOT, 'envs', e, 'web')) ? files(`envs/${e}/web`, /\.js$/) : []))];
    expect(pageFiles.filter((f) => f.startsWith('envs/')).length).toBeGreaterThanOrEqual(5);
    const bad = pageFiles.flatMap((f) => [
      ...imports(f)
        .filter((t) => (isPackage(t) ? !BROWSER.includes(t) : !under(t, 'web')))
        .map((t) => `${f} imports ${t}: ${reason}`),
      ...typeImports(f)
        .filter((t) => (isPackage(t) ? !BROWSER.includes(t) : !under(t, 'web', 'src/core', 'app/server', 'league') && !/^envs\/[^/]+\/(.*\/)?(types|observe)$/.test(t) && t !== 'src/train/metrics-log'))
        .map((t) => `${f} takes types from ${t}: ${reason}`),
      // a renderer draws its own env only: another env's files are not its to import
      ...(f.startsWith('envs/') ? [...imports(f), ...typeImports(f)].filter((t) => under(t, 'envs') && !under(t, f.split('/').slice(0, 2).join('/'))).map((t) => `${f} imports ${t}: a renderer sees its own env's types only`) : []),
    ]);
    expect(bad).toEqual([]);
  });

  test('the rules can fail: a wrong arrow is reported with its rule\'s reason', () => {
    const core = RULES.find((r) => r.from === 'src/core')!;
    expect(core.may('src/match/runner', 'src/core/env.ts')).toBe(false);
    expect(core.packages('socket.io')).toBe(false);
    const match = RULES.find((r) => r.from === 'src/match')!;
    expect(match.may('league/config', 'src/match/runner.ts')).toBe(false);
    expect(ruleOf('src/train/fused/layout.ts')?.from).toBe('src/train');
    const envs = RULES.find((r) => r.from === 'envs')!;
    expect(envs.may('envs/countdown/state', 'envs/werewolf/voting.ts')).toBe(false);
    expect(envs.may('envs/werewolf/state', 'envs/werewolf/voting.ts')).toBe(true);
    expect(RULES.find((r) => r.from === 'app/cli')!.may('envs/code-repair/task-check', 'app/cli/commands/tasks.ts')).toBe(false);
  });

  test('inside an env folder the arrows run definition <- agents/ <- index.ts <- envs/index.ts, and each wrong one fails with its rule\'s reason', () => {
    const reason = (from: string) => RULES.find((r) => r.from === from)!.reason;
    expect(['envs/werewolf/voting.ts', 'envs/werewolf/agents/rule-based.ts', 'envs/werewolf/index.ts', 'envs/index.ts', 'envs/kernel-speedup/measure/index.ts'].map((f) => ruleOf(f)?.from)).toEqual([
      'envs',
      'envs/*/agents',
      'envs/*/index',
      'envs/index',
      'envs',
    ]);
    // an env's agent: another env's module, its own env's public index (a circle: the index imports the agents), a generic agent, the engine
    const agent = [
      "import { STOP } from '../../countdown/actions';",
      "import { werewolf } from '..';",
      "import type { WerewolfObservation } from '../index';",
      "import { scriptedAgent } from '../../../agents/scripted';",
      "import { runMatch } from '../../../src/match/runner';",
      "import { ACCUSE } from '../actions';",
      "import type { Agent } from '../../../src/core/agent';",
    ].join('\n');
    expect(violationsOf('envs/werewolf/agents/planted.ts', agent)).toEqual(
      ['envs/countdown/actions', 'envs/werewolf', 'envs/werewolf/index', 'agents/scripted', 'src/match/runner'].map((t) => `envs/werewolf/agents/planted.ts imports ${t}: envs/*/agents — ${reason('envs/*/agents')}`),
    );
    expect(upArrowsOf('envs/werewolf/agents/planted.ts', agent)).toEqual([
      'envs/werewolf/agents/planted.ts imports agents/scripted: floor 1 (envs: the envs, on the contracts alone: each env folder holds its definition, its agents and its registration) may not import floor 2 (agents: the generic agents play every env through the contracts)',
      'envs/werewolf/agents/planted.ts imports src/match/runner: floor 1 (envs: the envs, on the contracts alone: each env folder holds its definition, its agents and its registration) may not import floor 3 (src/match: the engine plays, stores, trains and sandboxes matches of any env)',
    ]);
    // the definition: its own agents, its public index, another env
    const definition = "import { ruleBasedAgent } from './agents/rule-based';\nimport { werewolf } from './index';\nimport { ENV_ID } from '../countdown/config';\nimport { NONE } from './actions';\n";
    expect(violationsOf('envs/werewolf/planted.ts', definition)).toEqual(
      ['envs/werewolf/agents/rule-based', 'envs/werewolf/index', 'envs/countdown/config'].map((t) => `envs/werewolf/planted.ts imports ${t}: envs — ${reason('envs')}`),
    );
    // the public index: its own folder only; envs/index.ts: public indexes only
    expect(violationsOf('envs/werewolf/index.ts', "export { STOP } from '../countdown/actions';\nexport { ruleBasedAgent } from './agents/rule-based';\n")).toEqual([
      `envs/werewolf/index.ts imports envs/countdown/actions: envs/*/index — ${reason('envs/*/index')}`,
    ]);
    expect(violationsOf('envs/index.ts', "export { werewolf } from './werewolf';\nexport { werewolfEnv } from './werewolf/env';\n")).toEqual([
      `envs/index.ts imports envs/werewolf/env: envs/index — ${reason('envs/index')}`,
    ]);
    // the catalog reads the envs from envs/index.ts only, and a generic agent sees no env
    expect(violationsOf('app/catalog.ts', "import { kernelMeasureHandler } from '../envs/kernel-speedup';\n")).toHaveLength(1);
    expect(violationsOf('agents/planted.ts', "import { STOP } from '../envs/countdown';\n")).toEqual([`agents/planted.ts imports envs/countdown: agents — ${reason('agents')}`]);
  });

  test('a planted wrong arrow fails with its rule\'s reason and its floors', () => {
    // the engine reaching up into the league and the CLI; the league reaching up into the servers
    const engine = "import { runLeague } from '../../league/league-run';\nimport { main } from '../../app/cli/main';\n";
    expect(violationsOf('src/match/planted.ts', engine)).toEqual([
      `src/match/planted.ts imports league/league-run: src/match — ${RULES.find((r) => r.from === 'src/match')!.reason}`,
      `src/match/planted.ts imports app/cli/main: src/match — ${RULES.find((r) => r.from === 'src/match')!.reason}`,
    ]);
    expect(upArrowsOf('src/match/planted.ts', engine)).toEqual([
      'src/match/planted.ts imports league/league-run: floor 3 (src/match: the engine plays, stores, trains and sandboxes matches of any env) may not import floor 4 (league: leagues and tournaments schedule matches on the engine)',
      'src/match/planted.ts imports app/cli/main: floor 3 (src/match: the engine plays, stores, trains and sandboxes matches of any env) may not import floor 5 (app/cli: the applications: the command line)',
    ]);
    const league = "export type { ViewEvent } from '../app/server/protocol';\n";
    expect(violationsOf('league/planted.ts', league)).toEqual([`league/planted.ts imports app/server/protocol: league — ${RULES.find((r) => r.from === 'league')!.reason}`]);
    expect(upArrowsOf('league/planted.ts', league)).toHaveLength(1);
    // a require() and a package are read too; a comment line is not an import
    expect(violationsOf('src/core/planted.ts', "const x = require('../match/runner');\nimport { Server } from 'socket.io';\n// import { y } from '../../app/cli/main';\n")).toHaveLength(2);
    // a folder with no rule or floor is reported, not passed
    expect(violationsOf('newfloor/planted.ts', '')).toEqual(['newfloor/planted.ts: no rule in test/layering.test.ts covers it']);
    expect(upArrowsOf('newfloor/planted.ts', '')).toEqual(['newfloor/planted.ts: stands on no floor of FLOORS in test/layering.test.ts']);
  });
});

/** Import graph between project files (relative imports resolved to files), for the circle check. */
function fileGraph(): Map<string, string[]> {
  const all = ['src', 'envs', 'agents', 'league', 'app', 'bench'].flatMap((d) => files(d));
  const known = new Set(all.map((f) => f.replace(/\.ts$/, '')));
  const graph = new Map<string, string[]>();
  for (const f of all) {
    const targets = imports(f)
      .filter((t) => !isPackage(t))
      .map((t) => (known.has(t) ? t : known.has(`${t}/index`) ? `${t}/index` : null))
      .filter((t): t is string => t !== null);
    graph.set(f.replace(/\.ts$/, ''), targets);
  }
  return graph;
}

/** The circles of a graph: strongly connected components of more than one node (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('layering: no import circles', () => {
  test('no two files of src/, envs, agents, league, app or bench import each other, directly or around a circle (type imports count)', () => {
    expect(circles(fileGraph())).toEqual([]);
  });

  test('the circle finder finds a circle', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(g)).toEqual([['a', 'b', 'c']]);
  });
});
