/**
 * Globals of the page: the vendor scripts index.html loads as classic scripts (socket.io's
 * client, chart.js, jsdiff), typed by their packages.
 */
import type { io as socketIo } from 'socket.io-client';
import type { Chart as ChartJs } from 'chart.js';
import type * as JsDiff from 'diff';

declare global {
  interface Window {
    /** socket.io's browser client (/socket.io/socket.io.min.js). */
    io: typeof socketIo;
    /** chart.js (/vendor/chart.umd.min.js); undefined when it failed to load. */
    Chart?: typeof ChartJs;
    /** jsdiff (/vendor/diff.min.js); undefined when it failed to load. */
    Diff?: typeof JsDiff;
  }
}

export {};
