/** Text form of a werewolf-v1 observation, for text agents and terminals. */
import type { WerewolfObservation } from './observation';
import type { PrivateEvent, PublicEvent } from './state';

const seatName = (p: number | null | undefined): string => (p === null || p === undefined ? 'nobody' : `P${p}`);

/** One line per public event. */
export function describePublic(e: PublicEvent): string {
  switch (e.type) {
    case 'dawn':
      return e.dead.length ? `Dawn: ${e.dead.map((x, i) => `${seatName(x)}${e.roles ? ` (${e.roles[i]})` : ''}`).join(', ')} died in the night.` : 'Dawn: nobody died in the night.';
    case 'speech': {
      const who = seatName(e.seat);
      const text = e.text ? ` "${e.text}"` : '';
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

/** One line per private event. */
export function describePrivate(e: PrivateEvent): string {
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
      return `Night ${e.round}: you checked ${seatName(e.target)}: ${e.result}.`;
    case 'protect':
      return `Night ${e.round}: you protected ${seatName(e.target)}.`;
    case 'guard':
      return `Night ${e.round}: you guarded ${seatName(e.target)}.`;
    case 'victim':
      return `Night ${e.round}: the werewolves attacked ${seatName(e.target)}.`;
    case 'antidote':
      return `Night ${e.round}: you used the antidote on ${seatName(e.target)}.`;
    case 'poison':
      return `Night ${e.round}: you poisoned ${seatName(e.target)}.`;
    case 'vote':
      return `Day ${e.round}: you voted ${e.target === null ? 'to pass' : `for ${seatName(e.target)}`}.`;
  }
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
