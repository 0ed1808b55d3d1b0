// @ts-check
/**
 * The list of a view's events up to the replay cursor (the newest 300), kept in step
 * incrementally: a new event appends one row, scrubbing back removes rows, so the rows already
 * shown are never rebuilt. Rows carry the event's words (the env's caption, or the arena's).
 */
import { h } from './dom.js';
import { describeEvent } from './renderers/describe.js';

/** @typedef {import('./types.js').ViewEvent} ViewEvent */

/** Rows kept at most. */
export const TIMELINE_ROWS = 300;

export class Timeline {
  /**
   * @param {string} id the list's element id
   * @param {(seq: number) => void} [onSelect] a click on a row (its event's view seq)
   */
  constructor(id, onSelect) {
    this.el = h('ol', { class: 'timeline', id });
    this.onSelect = onSelect;
    /** First and one-past-last event positions shown. */
    this.start = 0;
    this.end = 0;
    /** @type {number | null} */
    this.selected = null;
  }

  /** @param {ViewEvent} e */
  row(e) {
    const type = e.type.replace('.', '-');
    return h('li', { class: `ev ev-${type}${e.visibility === 'public' ? '' : ' private'}${e.seq === this.selected ? ' selected' : ''}`, dataset: { seq: e.seq, type: e.type }, onclick: this.onSelect ? () => this.onSelect?.(e.seq) : undefined },
      h('span', { class: 'seq' }, `#${e.seq}`),
      h('span', { class: 'etype' }, e.type === 'env' ? e.name : e.type),
      h('span', { class: 'edesc' }, describeEvent(e)));
  }

  /** Forgets every row (a new snapshot). */
  reset() {
    this.el.replaceChildren();
    this.start = this.end = 0;
  }

  /**
   * Shows events [max(0, cursor - 300), cursor) of `events`, touching only the rows that change.
   * @param {readonly ViewEvent[]} events
   * @param {number} cursor
   * @param {number | null} selected the selected event's seq
   * @param {boolean} follow scroll to the newest row whenever rows change (live)
   * @returns {boolean} whether the newest row should be brought into sight: call `scrollToEnd`
   *   once the frame's layout is done (the box below the list may change height)
   */
  sync(events, cursor, selected, follow) {
    const before = `${this.start}:${this.end}`;
    if (selected !== this.selected) {
      for (const li of this.el.querySelectorAll('li.selected')) li.classList.remove('selected');
      if (selected !== null) this.el.querySelector(`li[data-seq="${selected}"]`)?.classList.add('selected');
      this.selected = selected;
    }
    const end = Math.min(cursor, events.length);
    const start = Math.max(0, end - TIMELINE_ROWS);
    if (start >= this.end || end <= this.start) {
      this.reset();
      this.start = this.end = start;
    }
    while (this.end > end) {
      this.el.lastElementChild?.remove();
      this.end--;
    }
    while (this.start < start) {
      this.el.firstElementChild?.remove();
      this.start++;
    }
    while (this.start > start) this.el.prepend(this.row(events[--this.start]));
    while (this.end < end) this.el.append(this.row(events[this.end++]));
    // live, or a replay shown up to its last event: the newest row in sight
    return (follow || end === events.length) && before !== `${this.start}:${this.end}`;
  }

  scrollToEnd() {
    this.el.scrollTop = this.el.scrollHeight;
  }
}
