/** Text form of a werewolf-v1 observation, for text agents and terminals. */
import type { JsonObject } from '../../src/core/json';
import { quoteSpeech } from '../../src/core/quote-text';
import type { Visibility } from '../../src/core/visibility';
import type { WerewolfObservation } from './observe';
import { ROLE_NAMES } from './roles';
import type { Rules } from './config';
import type { PrivateEvent, PublicEvent } from './state';

const seatName = (p: number | null | undefined): string => (p === null || p === undefined ? 'nobody' : `P${p}`);

/** One line per public event. */
export function describePublic(e: PublicEvent): string {
  switch (e.type) {
    case 'dawn':
      return e.dead.length ? `Dawn: ${e.dead.map((x, i) => `${seatName(x)}${e.roles ? ` (${e.roles[i]})` : ''}`).join(', ')} died in the night.` : 'Dawn: nobody died in the night.';
    case 'speech': {
      const who = seatName(e.seat);
      // The speaker's words, quoted on one line: they cannot end the quote or forge a line (src/core/quote-text.ts).
      const text = e.text ? ` ${quoteSpeech(e.text)}` : '';
      switch (e.act) {
        case 'claim':
          return `${who} claims to be the ${e.role}.${text}`;
        case 'accuse':
          return `${who} accuses ${seatName(e.target)}.${text}`;
        case 'defend':
          return `${who} defends ${seatName(e.target)}.${text}`;
        case 'reveal':
          return `${who} says ${seatName(e.target)} ${e.werewolf ? 'is a werewolf' : 'is not a werewolf'} (seer result).${text}`;
        case 'agree':
          return `${who} agrees with ${seatName(e.target)}.${text}`;
        default:
          return `${who} stays silent.${text}`;
      }
    }
    case 'vote':
      return `${seatName(e.seat)} votes ${e.target === null ? 'to pass' : `for ${seatName(e.target)}`}.`;
    case 'votes':
      return `Votes: ${e.votes.map((t, v) => (t === null ? null : `${seatName(v)}->${seatName(t)}`)).filter(Boolean).join(', ') || 'none'}.`;
    case 'exile':
      return e.seat === null ? 'Nobody is exiled.' : `${seatName(e.seat)}${e.role ? ` (${e.role})` : ''} is exiled.`;
    case 'game-over':
      return `Game over: the ${e.winner === 'draw' ? 'game is a draw' : `${e.winner} win`}. Roles: ${e.roles.map((r, i) => `P${i} ${r}`).join(', ')}.`;
  }
}

/**
 * One line per private event, told to its seat ("you checked P3"), or about seat `who` when
 * given (spectators: "P2 checked P3").
 */
export function describePrivate(e: PrivateEvent, who?: number): string {
  const you = who === undefined ? 'you' : seatName(who);
  switch (e.type) {
    case 'kill':
      return `Night ${e.round}: ${seatName(e.by)} chose to kill ${seatName(e.target)}.`;
    case 'proposal':
      return `Night ${e.round}: ${seatName(e.by)} proposed to kill ${seatName(e.target)}.`;
    case 'decision':
      return `Night ${e.round}: ${seatName(e.by)} decided to kill ${seatName(e.target)}.`;
    case 'wolf-vote':
      return `Night ${e.round}: ${seatName(e.by)} voted to kill ${seatName(e.target)}.`;
    case 'check':
      return `Night ${e.round}: ${you} checked ${seatName(e.target)}: ${e.result}.`;
    case 'protect':
      return `Night ${e.round}: ${you} protected ${seatName(e.target)}.`;
    case 'guard':
      return `Night ${e.round}: ${you} guarded ${seatName(e.target)}.`;
    case 'victim':
      return `Night ${e.round}: the werewolves attacked ${seatName(e.target)}.`;
    case 'antidote':
      return `Night ${e.round}: ${you} used the antidote on ${seatName(e.target)}.`;
    case 'poison':
      return `Night ${e.round}: ${you} poisoned ${seatName(e.target)}.`;
    case 'vote':
      return `Day ${e.round}: ${you} voted ${e.target === null ? 'to pass' : `for ${seatName(e.target)}`}.`;
  }
}

const PUBLIC_TYPES = new Set<string>(['dawn', 'speech', 'vote', 'votes', 'exile', 'game-over']);
const PRIVATE_TYPES = new Set<string>(['kill', 'proposal', 'decision', 'wolf-vote', 'check', 'protect', 'guard', 'victim', 'antidote', 'poison', 'vote']);

/**
 * The words for one werewolf-v1 step event as the env emitted it (`name`, `data`, visibility):
 * the same lines as the observation's text (public events, a seat's private results told about
 * that seat), plus the floor and the bids. Null for a name it does not know.
 */
export function describeEnvEvent(name: string, data: JsonObject, visibility: Visibility): string | null {
  if (name === 'floor') return `${seatName(data.seat as number)} has the floor.`;
  if (name === 'bids' && Array.isArray(data.bids)) return `Bids for the floor: ${data.bids.map((b, i) => `${seatName(i)} ${String(b)}`).join(', ')}.`;
  if (visibility === 'public') return PUBLIC_TYPES.has(name) ? describePublic({ ...data, type: name } as unknown as PublicEvent) : null;
  if (!PRIVATE_TYPES.has(name)) return null;
  const who = typeof visibility === 'object' && 'seat' in visibility ? visibility.seat : undefined;
  return describePrivate({ ...data, type: name } as unknown as PrivateEvent, who);
}

const EXILE_TEXT: Record<Rules['exile'], string> = {
  majority: 'a player is exiled only with a strict majority of the living',
  'plurality-random': 'the most votes exile a player (ties broken at random)',
  'plurality-none': 'the most votes exile a player (a tie exiles nobody)',
};
const WIN_TEXT: Record<Rules['winRule'], string> = {
  parity: 'the werewolves when they are as many as the others',
  majority: 'the werewolves when they outnumber the others',
  'villagers-dead': 'the werewolves when every plain villager is dead',
};

/** The rules in force, in words: the roles dealt, how votes work and what is revealed, who wins. */
export function rulesText(r: Rules): string {
  const plural = (n: number, name: string) => (n === 1 ? name : name === 'werewolf' ? 'werewolves' : `${name}s`);
  const roles = ROLE_NAMES.filter((n) => r.composition[n] > 0).map((n) => `${r.composition[n]} ${plural(r.composition[n], n)}`);
  const votes =
    r.voting === 'sequential'
      ? 'Players vote one after another, in public'
      : r.votesPublic
        ? 'Everyone votes at once; who voted for whom is announced'
        : 'Everyone votes at once and the votes stay secret: only the exile is announced';
  return [
    `Werewolf (${r.preset} rules), ${r.players} players: ${roles.join(', ')}; roles are secret.`,
    `The game starts at ${r.firstPhase}. ${votes}${r.abstain ? '' : ' (no abstaining)'}; ${EXILE_TEXT[r.exile]}.`,
    `The role of a dead player is ${r.revealOnDeath ? 'announced' : 'not announced'}.`,
    `The villagers win when every werewolf is gone; ${WIN_TEXT[r.winRule]}. After ${r.maxRounds} rounds: ${r.roundCap === 'draw' ? 'a draw' : 'a random winning team'}.`,
  ].join(' ');
}

/** The whole observation as text: who you are, who is alive, what happened, what you are asked. */
export function renderObservation(o: WerewolfObservation): string {
  const p = o.public;
  const lines: string[] = [];
  lines.push(`Werewolf (${o.rules.preset}), ${o.rules.players} players, round ${p.round}, phase ${p.phase}.`);
  if (o.seat !== null) lines.push(`You are P${o.seat}, the ${o.role}${o.wolves.length > 1 ? `; the werewolves are ${o.wolves.map((w) => `P${w}`).join(', ')}` : ''}.`);
  else lines.push(`You are watching (${o.view}).`);
  if (o.roles) lines.push(`Roles: ${o.roles.map((r, i) => `P${i} ${r}`).join(', ')}.`);
  lines.push(`Alive: ${p.alive.map((a, i) => (a ? `P${i}` : null)).filter(Boolean).join(', ')}.`);
  if (o.potions) lines.push(`Potions left: antidote ${o.potions[0]}, poison ${o.potions[1]}.`);
  p.log.forEach((chunk, i) => {
    if (!chunk.length) return;
    lines.push(`-- round ${i + 1} --`);
    for (const e of chunk) lines.push(describePublic(e));
  });
  const mine = [...o.private, ...(o.teamLog ?? [])];
  if (mine.length) {
    lines.push('-- private --');
    for (const e of mine) lines.push(describePrivate(e));
  }
  if (p.speaker >= 0) lines.push(`P${p.speaker} has the floor.`);
  if (o.ask) lines.push(`You are asked to: ${o.ask}.`);
  return lines.join('\n');
}
