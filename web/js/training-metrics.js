// @ts-check
/**
 * Training iterations as chart series, in words: each metric of the trainer's iteration record
 * (src/train/metrics-log.ts `IterationMetrics`) is named for a reader ("win rate vs greedy
 * (threshold 8)", not "learners.negotiator.winRate.greedy:{"threshold":8}") and classed as a
 * return, a rate (0 to 1) or a count, so counts never share an axis with rates.
 */

/** @typedef {import('./types.js').TrainingRecord} TrainingRecord */
/** @typedef {import('./types.js').IterationMetrics} IterationMetrics */
/** @typedef {import('./types.js').JsonValue} JsonValue */
/** @typedef {'return' | 'rate' | 'count'} MetricKind */
/** @typedef {{ key: string, label: string, kind: MetricKind, value: number }} Metric */
/** @typedef {{ label: string, kind: MetricKind, points: { x: number, y: number }[] }} MetricSeries */

/** "agreementRate" -> "agreement rate" @param {string} key */
export function words(key) {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * An opponent as the trainer names it, in words: "self" -> "itself", "self/a+b" -> "itself
 * (with a, b)", 'greedy:{"threshold":8}' -> "greedy (threshold 8)".
 * @param {string} spec
 * @returns {string}
 */
export function opponentWords(spec) {
  if (spec === 'self') return 'itself';
  if (spec.startsWith('self/')) return `itself (with ${spec.slice(5).split('+').map(opponentWords).join(', ')})`;
  const colon = spec.indexOf(':{');
  if (colon > 0) {
    try {
      const opts = /** @type {Record<string, unknown>} */ (JSON.parse(spec.slice(colon + 1)));
      return `${spec.slice(0, colon)} (${Object.entries(opts).map(([k, v]) => `${words(k)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ')})`;
    } catch {
      return spec;
    }
  }
  return spec;
}

/**
 * Members of the trainer's record: read by name above or left out (timings, settings); anything
 * else is classed by its name. Typed against IterationMetrics: a member added there fails the
 * page's type check until it is placed here.
 * @type {Record<keyof IterationMetrics, true>}
 */
const MEMBERS = { run: true, env: true, backend: true, iteration: true, lr: true, episodes: true, samples: true, seconds: true, rolloutSeconds: true, updateSeconds: true, policyLag: true, episodesPerSec: true, samplesPerSec: true, updateSamplesPerSec: true, outcomes: true, envStats: true, sources: true, learners: true, eval: true };
const KNOWN = new Set(Object.keys(MEMBERS));

/** @param {JsonValue | undefined} v @returns {v is { [key: string]: JsonValue }} */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** @param {JsonValue | undefined} v @returns {v is number} */
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * Every metric of one iteration record, named and classed. Unknown shapes fall back to their
 * numeric leaves, classed by name (…rate: a rate; …return: a return; games, episodes, counts).
 * @param {JsonValue} metrics
 * @returns {Metric[]}
 */
export function metricsOf(metrics) {
  /** @type {Metric[]} */
  const out = [];
  /** @param {string} key @param {string} label @param {MetricKind} kind @param {JsonValue | undefined} value */
  const add = (key, label, kind, value) => {
    if (isNumber(value)) out.push({ key, label, kind, value });
  };
  if (!isObject(metrics)) return out;
  const m = metrics;
  if (isObject(m.learners)) {
    for (const [group, g] of Object.entries(m.learners)) {
      if (!isObject(g)) continue;
      for (const [role, v] of Object.entries(isObject(g.meanReturn) ? g.meanReturn : {})) add(`${group}.return.${role}`, `mean return as ${role}`, 'return', v);
      for (const [opp, v] of Object.entries(isObject(g.winRate) ? g.winRate : {})) add(`${group}.win.${opp}`, `win rate vs ${opponentWords(opp)}`, 'rate', v);
      for (const [opp, v] of Object.entries(isObject(g.games) ? g.games : {})) add(`${group}.games.${opp}`, `games vs ${opponentWords(opp)}`, 'count', v);
    }
  }
  if (isObject(m.eval)) {
    for (const [learner, byOpp] of Object.entries(m.eval)) {
      if (!isObject(byOpp)) continue;
      for (const [opp, r] of Object.entries(byOpp)) {
        if (!isObject(r)) continue;
        add(`eval.${learner}.win.${opp}`, `evaluation: win rate vs ${opponentWords(opp)}`, 'rate', r.winRate);
        for (const [role, v] of Object.entries(isObject(r.meanReturn) ? r.meanReturn : {})) add(`eval.${learner}.return.${opp}.${role}`, `evaluation: mean return as ${role} vs ${opponentWords(opp)}`, 'return', v);
      }
    }
  }
  add('episodes', 'episodes played', 'count', m.episodes);
  for (const [o, v] of Object.entries(isObject(m.outcomes) ? m.outcomes : {})) add(`outcome.${o}`, `episodes ending “${o}”`, 'count', v);
  for (const [k, v] of Object.entries(isObject(m.envStats) ? m.envStats : {})) {
    if (!/rate$/i.test(k)) continue;
    if (isObject(v)) for (const [part, x] of Object.entries(v)) add(`env.${k}.${part}`, `${words(k)}: ${part}`, 'rate', x); // Werewolf's win rate per team
    else add(`env.${k}`, words(k), 'rate', v);
  }
  // episode sources (co-evolving league learners): episodes from each, and the env's rates on them
  for (const [src, v] of Object.entries(isObject(m.sources) ? m.sources : {})) {
    if (!isObject(v)) continue;
    add(`source.${src}.episodes`, `episodes from ${opponentWords(src)}`, 'count', v.episodes);
    for (const [k, x] of Object.entries(isObject(v.envStats) ? v.envStats : {})) if (/rate$/i.test(k)) add(`source.${src}.${k}`, `${words(k)} on episodes from ${opponentWords(src)}`, 'rate', x);
  }
  // any other member (a flat or custom record): its numeric leaves, classed by name
  /** @param {JsonValue} v @param {string[]} path */
  const walk = (v, path) => {
    if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    else if (isNumber(v) && path.length) {
      const last = path[path.length - 1];
      const kind = /rate$/i.test(last) ? 'rate' : /return/i.test(last) ? 'return' : /^(games|count)$/i.test(last) ? 'count' : null;
      const where = path.slice(0, -1).map(opponentWords).join(' · ');
      if (kind) add(path.join('.'), `${where ? `${where}: ` : ''}${words(last)}`, kind, v);
    }
  };
  for (const [k, v] of Object.entries(m)) if (!KNOWN.has(k)) walk(v, [k]);
  return out;
}

/**
 * A metrics row's owner in words: a learner's id, or "difficulty probe X" for the league's
 * probes (league/probes.ts, rows "probe:X").
 * @param {string} role
 */
export function roleWords(role) {
  return role.startsWith('probe:') ? `difficulty probe ${role.slice(6)}` : role;
}

/**
 * Series per (learner, metric) over iterations, for one kind of metric. Learner names prefix
 * the labels when the records hold more than one learner.
 * @param {readonly TrainingRecord[]} records
 * @param {MetricKind} kind
 * @param {number} [max] most series (the first seen)
 * @returns {MetricSeries[]}
 */
export function seriesOf(records, kind, max = 12) {
  const learners = new Set(records.map((r) => r.role));
  /** @type {Map<string, MetricSeries>} */
  const series = new Map();
  for (const r of records) {
    for (const m of metricsOf(r.metrics)) {
      if (m.kind !== kind) continue;
      const id = `${r.role}\u0000${m.key}`;
      let s = series.get(id);
      if (!s) series.set(id, (s = { label: learners.size > 1 ? `${roleWords(r.role)}: ${m.label}` : m.label, kind, points: [] }));
      s.points.push({ x: r.iteration, y: m.value });
    }
  }
  return [...series.values()].slice(0, max);
}
