/**
 * The `send` update's validator: a message to a closed thread, a bad body or bad agent settings
 * are refused before anything is recorded.
 */
import { workflowFailure } from '../contract/failures';
import { messageProblem } from '../contract/message-check';
import { sendInputSchema } from '../contract/thread-contract';
import { issueLines } from '../issue-lines';
import { isUnencrypted, UNENCRYPTED_REFUSAL } from '../unencrypted-payload';

/** Throws the coded failure a message is refused with; `closedReason` set when the thread has closed. */
export function checkSend(sent: unknown, closedReason: string | undefined): void {
  if (isUnencrypted(sent)) throw workflowFailure('NOT_ENCRYPTED', `send: ${UNENCRYPTED_REFUSAL}`);
  if (closedReason !== undefined) throw workflowFailure('THREAD_CLOSED', `the thread has closed: ${closedReason}`);
  const parsed = sendInputSchema.safeParse(sent);
  if (!parsed.success) throw workflowFailure('INVALID_INPUT', issueLines(parsed.error, 'message').join('; '));
  const problem = messageProblem(parsed.data);
  if (problem) throw workflowFailure('INVALID_INPUT', problem.message);
}
