/**
 * Who may steer a running task turn: its sender — the same principal id signed in in the same
 * realm (or, both under nobody, the same nobody) — or an admin. A steered message runs inside the
 * turn, under the turn's principal: approval policies judging that principal would judge someone
 * else's words were anyone allowed to steer. Anyone else's steer is queued as their own turn,
 * run under their own principal. Pure: runs in the workflow sandbox.
 */
import type { SendInput } from '../contract/thread-contract';
import { sameSender, type Sender } from '../model/tools/approval-reuse';

/** The sender of a message as Cairn's HTTP API vouched for it: its actor's id and sign-in; none without an actor. */
export function senderOfMessage(sent: Pick<SendInput, 'actor'>): Sender | undefined {
  const { actor } = sent;
  if (!actor) return undefined;
  return { id: actor.id, ...(actor.authenticatedBy ? { authenticatedBy: actor.authenticatedBy } : {}) };
}

/** Whether `steer` may steer the running turn whose message was sent by `owner`. */
export function maySteer(steer: Pick<SendInput, 'actor'>, owner: Sender | undefined): boolean {
  if (steer.actor?.roles.includes('admin')) return true;
  return sameSender(senderOfMessage(steer), owner);
}
