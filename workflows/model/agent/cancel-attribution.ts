/**
 * Who cancelled an agent. A client that knows who is asking records it with the `recordCancel`
 * update and then requests the cancellation at once; the agent's end names that person. A
 * request recorded long before the cancellation came is taken as abandoned (its client failed
 * between the two calls), so a later cancellation from elsewhere — the Temporal UI, the CLI —
 * is not put in that person's name. Pure: the caller passes the workflow time.
 */
import type { AgentState } from './agent-state';

type CancelRequest = NonNullable<AgentState['cancelRequest']>;

/** How long after it was recorded a cancel request still names whoever cancels. */
export const CANCEL_REQUEST_HOLDS_MS = 5 * 60_000;

/** The request the cancellation answers, or none when there was none or it was abandoned. */
export function cancelRequester(request: CancelRequest | undefined, now: number): CancelRequest | undefined {
  return request !== undefined && now - request.at <= CANCEL_REQUEST_HOLDS_MS ? request : undefined;
}
