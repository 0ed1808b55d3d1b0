// @ts-check
/**
 * Replay controls over a list of events: to start, step back, play/pause, step, to end (live),
 * a scrubber and a speed. The owner keeps the events; the controls keep the cursor (how many
 * events are shown) and call `onChange(cursor)`. While "following", new events move the cursor
 * to the end (the live view).
 */
import { h, mount } from './dom.js';

const SPEEDS = [0.5, 1, 2, 4, 10];

export class ReplayControls {
  /** @param {(cursor: number) => void} onChange */
  constructor(onChange) {
    this.onChange = onChange;
    this.total = 0;
    this.cursor = 0;
    this.following = true;
    this.playing = false;
    this.speed = 2;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    this.el = h('div', { class: 'replay-controls', id: 'replay-controls' });
    /** @param {string} id @param {string} label @param {string} title @param {() => void} fn */
    const btn = (id, label, title, fn) => h('button', { id, title, onclick: fn }, label);
    this.playBtn = btn('ctl-play', '▶', 'play / pause', () => this.toggle());
    this.range = h('input', { id: 'ctl-scrub', type: 'range', min: 0, max: 0, value: 0, oninput: (/** @type {Event} */ e) => this.seek(Number(/** @type {HTMLInputElement} */ (e.target).value)) });
    this.label = h('span', { class: 'ctl-label', id: 'ctl-label' });
    this.liveBtn = btn('ctl-live', 'live ▶▶', 'jump to the latest event and follow', () => this.follow());
    const speed = h(
      'select',
      { id: 'ctl-speed', title: 'events per second', onchange: (/** @type {Event} */ e) => { this.speed = Number(/** @type {HTMLSelectElement} */ (e.target).value); if (this.playing) this.restart(); } },
      SPEEDS.map((s) => h('option', { value: s, selected: s === this.speed }, `${s}×`)),
    );
    mount(
      this.el,
      btn('ctl-start', '|◀', 'to the start', () => this.seek(0)),
      btn('ctl-back', '◀', 'step back one event', () => this.seek(this.cursor - 1)),
      this.playBtn,
      btn('ctl-step', '▶|', 'step forward one event', () => this.seek(this.cursor + 1)),
      this.liveBtn,
      this.range,
      this.label,
      speed,
    );
  }

  /** The number of events changed (a live event arrived, or a snapshot loaded). @param {number} total */
  setTotal(total) {
    this.total = total;
    if (this.following) this.cursor = total;
    this.sync();
  }

  /** Shows the first `cursor` events. @param {number} cursor */
  seek(cursor) {
    this.cursor = Math.max(0, Math.min(this.total, cursor));
    this.following = this.cursor === this.total && !this.playing && this.following;
    if (this.cursor < this.total) this.following = false;
    this.sync();
    this.onChange(this.cursor);
  }

  follow() {
    this.pause();
    this.following = true;
    this.seek(this.total);
    this.following = true;
    this.sync();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Plays a finished game from its first event (what "watch" does on a game that just ended). */
  replayFromStart() {
    this.following = false;
    this.seek(0);
    this.play();
  }

  play() {
    if (this.cursor >= this.total) this.cursor = 0;
    this.playing = true;
    this.following = false;
    this.restart();
    this.sync();
  }

  restart() {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (this.cursor >= this.total) return this.pause();
      this.seek(this.cursor + 1);
    }, 1000 / this.speed);
  }

  pause() {
    this.playing = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sync();
  }

  sync() {
    this.playBtn.textContent = this.playing ? '❚❚' : '▶';
    this.range.max = String(this.total);
    this.range.value = String(this.cursor);
    this.label.textContent = `event ${this.cursor} / ${this.total}`;
    this.liveBtn.classList.toggle('active', this.following);
  }

  dispose() {
    if (this.timer) clearInterval(this.timer);
  }
}
