/**
 * How a thread's message is routed: the kind its sender gave; a message with files is a task
 * (only a task turn's agent reads files, a chat reply would lose them); otherwise the
 * `route-message` call decides.
 */
import type { SendInput } from '../contract/thread-contract';
import { routeMessage, type ThreadCalls } from './thread-calls';
import type { MessageRoute } from '../model/thread/message-route';

/** The route of message `messageId`: given, implied by its files, or the router's. */
export async function routeOf(
  calls: ThreadCalls,
  messageId: string,
  sent: SendInput,
): Promise<Pick<MessageRoute, 'kind'> | MessageRoute> {
  if (sent.kind) return { kind: sent.kind };
  if (sent.files?.length) return { kind: 'task' };
  return routeMessage(calls, messageId, sent.text);
}
