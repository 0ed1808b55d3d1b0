// @ts-check
/**
 * A view's events with an index built once, as they arrive, so a frame never re-reads the whole
 * list: where the creation, start, turns, rewards and end are, and the env and message events
 * (by name). Every query takes the replay cursor (how many events are shown) and answers in
 * O(log n) plus the size of its answer.
 */

/** @typedef {import('./types.js').ViewEvent} ViewEvent */
/** @typedef {import('./types.js').MatchCreated} MatchCreated */
/** @typedef {import('./types.js').MatchStarted} MatchStarted */
/** @typedef {import('./types.js').MatchEnded} MatchEnded */
/** @typedef {import('./types.js').TurnEvent} TurnEvent */
/** @typedef {import('./types.js').RewardEvent} RewardEvent */
/** @typedef {Extract<ViewEvent, { type: 'env' }>} ViewEnvEvent an env step event with the env's words */

/**
 * How many positions of the ascending list `list` are below `cursor`.
 * @param {readonly number[]} list
 * @param {number} cursor
 */
function below(list, cursor) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class EventIndex {
  constructor() {
    /** @type {ViewEvent[]} */
    this.events = [];
    /** @type {number[]} */
    this.turns = [];
    /** @type {number[]} */
    this.rewards = [];
    /** @type {number[]} positions of env and message events: what was done and said */
    this.toldAt = [];
    /** @type {Map<string, number[]>} */
    this.byName = new Map();
    this.createdAt = -1;
    this.startedAt = -1;
    this.endedAt = -1;
  }

  /** @param {ViewEvent} e */
  push(e) {
    const i = this.events.length;
    this.events.push(e);
    switch (e.type) {
      case 'match.created':
        if (this.createdAt < 0) this.createdAt = i;
        break;
      case 'match.started':
        if (this.startedAt < 0) this.startedAt = i;
        break;
      case 'turn':
        this.turns.push(i);
        break;
      case 'reward':
        this.rewards.push(i);
        break;
      case 'match.ended':
        if (this.endedAt < 0) this.endedAt = i;
        break;
      case 'message':
        this.toldAt.push(i);
        break;
      case 'env': {
        this.toldAt.push(i);
        const list = this.byName.get(e.name) ?? [];
        list.push(i);
        this.byName.set(e.name, list);
        break;
      }
      default:
        break;
    }
  }

  get length() {
    return this.events.length;
  }

  /** The last event shown at `cursor`, or null. @param {number} cursor */
  last(cursor) {
    return cursor > 0 ? (this.events[cursor - 1] ?? null) : null;
  }

  /** @param {number} cursor @returns {MatchCreated | null} */
  created(cursor) {
    const e = this.createdAt >= 0 && this.createdAt < cursor ? this.events[this.createdAt] : null;
    return e && e.type === 'match.created' ? e : null;
  }

  /** @param {number} cursor @returns {MatchStarted | null} */
  started(cursor) {
    const e = this.startedAt >= 0 && this.startedAt < cursor ? this.events[this.startedAt] : null;
    return e && e.type === 'match.started' ? e : null;
  }

  /** @param {number} cursor @returns {MatchEnded | null} */
  ended(cursor) {
    const e = this.endedAt >= 0 && this.endedAt < cursor ? this.events[this.endedAt] : null;
    return e && e.type === 'match.ended' ? e : null;
  }

  /** The latest turn shown. @param {number} cursor @returns {TurnEvent | null} */
  lastTurn(cursor) {
    const k = below(this.turns, cursor);
    const e = k ? this.events[this.turns[k - 1]] : null;
    return e && e.type === 'turn' ? e : null;
  }

  /** The final returns once shown. @param {number} cursor @returns {number[] | null} */
  returns(cursor) {
    const k = below(this.rewards, cursor);
    const e = k ? this.events[this.rewards[k - 1]] : null;
    return e && e.type === 'reward' ? e.returns : null;
  }

  /** Env events named `name` shown at `cursor`, oldest first. @param {string} name @param {number} cursor @returns {ViewEnvEvent[]} */
  named(name, cursor) {
    const list = this.byName.get(name) ?? [];
    /** @type {ViewEnvEvent[]} */
    const out = [];
    for (const i of list.slice(0, below(list, cursor))) {
      const e = this.events[i];
      if (e.type === 'env') out.push(e);
    }
    return out;
  }

  /** The last `n` env and message events shown at `cursor`, oldest first. @param {number} n @param {number} cursor */
  told(n, cursor) {
    const end = below(this.toldAt, cursor);
    return this.toldAt.slice(Math.max(0, end - n), end).map((i) => this.events[i]);
  }
}
