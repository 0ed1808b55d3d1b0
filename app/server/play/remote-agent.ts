/**
 * The `remote` and `human` agent kinds: seats filled over the `/play` namespace (a bot in
 * another process or language, a person in the web page). They exist while a play hub serves:
 * `arena play` and `arena league run` register them when an agent spec names them.
 *
 * `remote` / `human` (a fresh slot per seat) or `remote:{"name":"bot-a"}` (one slot per name:
 * a league player, whose token opens every match it plays). The token is issued once, when the
 * slot is created, and handed to `onIssue` (the command prints it or writes it to a file).
 */
import type { Agent, AgentContext, AgentFactory } from '../../../src/core/agent';
import { parseAgentRef } from '../../../src/core/agent-ref';
import { RegistryError } from '../../../src/core/registry';
import type { PlayHub } from './play-hub';
import type { SeatKind } from './play-protocol';

/** A freshly issued slot and its token (the only time the token exists outside its holder). */
export interface IssuedSeat {
  kind: SeatKind;
  label: string;
  slot: string;
  token: string;
}

/** An agent that forwards its decisions to the slot's occupant. */
export class RemoteAgent implements Agent {
  readonly name: string;

  constructor(
    private readonly hub: PlayHub,
    readonly slot: string,
    kind: SeatKind,
    label: string,
  ) {
    this.name = `${kind}:${label}`;
  }

  start(ctx: AgentContext): void {
    this.hub.bind(this.slot, ctx);
  }

  act(obs: unknown, legal: readonly unknown[] | null, ctx: AgentContext): Promise<unknown> {
    return this.hub.ask(this.slot, obs, legal, ctx);
  }

  end(_returns: readonly number[], ctx: AgentContext): void {
    this.hub.unbind(this.slot, ctx.matchId, ctx.seat);
  }
}

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The `remote` and `human` factories bound to a hub; `onIssue` receives each new slot's token. */
export function remoteAgentFactories(hub: PlayHub, onIssue: (seat: IssuedSeat) => void): AgentFactory[] {
  let unnamed = 0;
  const factory = (kind: SeatKind, description: string): AgentFactory => ({
    name: kind,
    description,
    create: ({ options }) => {
      const extra = Object.keys(options ?? {}).filter((k) => k !== 'name');
      if (extra.length) throw new RegistryError(`agent "${kind}": unknown option "${extra[0]}" (allowed: name)`);
      const name = options?.name;
      if (name !== undefined && (typeof name !== 'string' || !NAME.test(name))) throw new RegistryError(`agent "${kind}": name must be 1-64 letters, digits or _ . : -`);
      const label = (name as string | undefined) ?? `${kind}-${++unnamed}`;
      let slot = hub.slotByLabel(label);
      if (slot && slot.kind !== kind) throw new RegistryError(`agent "${kind}": the name "${label}" is already a ${slot.kind} seat`);
      if (!slot) {
        const issued = hub.issue(label, kind);
        onIssue({ kind, label, slot: issued.slot, token: issued.token });
        slot = hub.slotByLabel(label)!;
      }
      return new RemoteAgent(hub, slot.id, kind, label);
    },
  });
  return [
    factory('remote', 'a bot in another process over the /play socket.io namespace (per-seat token; docs/protocol.md); remote:{"name":"bot-a"} names a reusable slot'),
    factory('human', 'a person in the web page (#/play/<token>): legal actions as buttons, free text for open sets'),
  ];
}

/** True when an agent spec names a remote or human seat (the command must serve /play). */
export function isPlaySpec(spec: string): boolean {
  try {
    const { kind } = parseAgentRef(spec);
    return kind === 'remote' || kind === 'human';
  } catch {
    return false;
  }
}
