// @ts-check
/**
 * The page's subscription to one league's live channel (leagues and tournaments share it): follow
 * a league (leaving the previous one), ask which one is followed, leave on page exit.
 */
import { request } from './api.js';

/** @param {'subscribe' | 'unsubscribe'} what @param {string} league */
const send = (what, league) => request(what, { channel: 'league', league }).catch(() => {});

export function leagueChannel() {
  /** @type {string | null} */
  let current = null;
  return {
    /** Follows `league` (a no-op when it is already followed). @param {string} league */
    follow(league) {
      if (current === league) return;
      if (current) send('unsubscribe', current);
      send('subscribe', league);
      current = league;
    },
    /** The league followed now, or null. */
    get current() {
      return current;
    },
    /** Leaves the followed league. */
    close() {
      if (current) send('unsubscribe', current);
      current = null;
    },
  };
}
