#!/usr/bin/env node
/**
 * A remote seat with the JS client SDK: connects to an arena's /play namespace with a seat token
 * and answers every decision (docs/protocol.md).
 *
 *   node examples/bots/remote-bot.js --url http://127.0.0.1:8080 --token TOKEN [--matches N]
 *
 * Policy: "agree" when legal, else a random legal action; open sets get a short answer.
 * Fault injection for tests (each a probability, per decision): --garbage P (an action the env
 * rejects), --slow P (answers after --slow-ms, past a short deadline), --drop P (drops the
 * connection mid-decision and reconnects after --drop-ms, or a random time up to --drop-ms-max).
 * Or a fixed cycle, decision by decision: --pattern ok,garbage,slow,drop:50,drop:1500 (drop:MS
 * reconnects after MS).
 */
'use strict';
const path = require('node:path');
const { connectSeat } = require(path.join(__dirname, '..', '..', 'dist', 'app', 'client', 'seat-client.js'));

function args(argv) {
  const o = { matches: Infinity, garbage: 0, slow: 0, drop: 0, slowMs: 1000, dropMs: 200, dropMsMax: 0, seed: 1 };
  for (let i = 2; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase());
    o[k] = ['url', 'token', 'pattern'].includes(k) ? argv[i + 1] : Number(argv[i + 1]);
  }
  if (!o.url || !o.token) {
    process.stderr.write('usage: remote-bot.js --url URL --token TOKEN [--matches N] [--garbage P] [--slow P] [--drop P]\n');
    process.exit(2);
  }
  return o;
}

const o = args(process.argv);
let state = o.seed >>> 0 || 1;
const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const pattern = o.pattern ? String(o.pattern).split(',') : null;
/** This decision's behaviour: the next entry of --pattern, or drawn with the --drop/--garbage/--slow probabilities. */
function behaviour() {
  if (pattern) return pattern[(decisions - 1) % pattern.length];
  const r = random();
  return r < o.drop ? 'drop' : r < o.drop + o.garbage ? 'garbage' : r < o.drop + o.garbage + o.slow ? 'slow' : 'ok';
}
let ended = 0;
let decisions = 0;
const faults = { garbage: 0, slow: 0, drop: 0 };

const seat = connectSeat({
  url: o.url,
  token: o.token,
  decide: (d) => {
    decisions++;
    const kind = behaviour();
    if (kind.startsWith('drop')) {
      faults.drop++;
      seat.socket.disconnect();
      setTimeout(() => seat.socket.connect(), kind.length > 5 ? Number(kind.slice(5)) : o.dropMs + random() * Math.max(0, o.dropMsMax - o.dropMs));
      return new Promise(() => {}); // the reconnected socket gets this decision again
    }
    if (kind === 'garbage') {
      faults.garbage++;
      return { action: { garbage: true } };
    }
    const answer = d.legal ? { label: d.legal.some((l) => l.label === 'agree') ? 'agree' : d.legal[Math.floor(random() * d.legal.length)].label } : { answer: 'Deal.' };
    if (kind === 'slow') {
      faults.slow++;
      return new Promise((resolve) => setTimeout(() => resolve(answer), o.slowMs));
    }
    return answer;
  },
  onEvent: (m) => {
    if (m.event.type !== 'match.ended') return;
    ended++;
    if (ended >= o.matches) finish(0);
  },
});
seat.ready.catch((e) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(2);
});

function finish(code) {
  process.stdout.write(JSON.stringify({ matches: ended, decisions, faults }) + '\n');
  seat.close();
  process.exit(code);
}
process.on('SIGTERM', () => finish(0));
