/**
 * The `send` update's validator: a message to a closed thread, a bad body, bad agent settings, one
 * naming another definition than the thread's, or one too many waiting (thread-queue-limits.ts)
 * are refused before anything is recorded.
 */
import { workflowFailure } from '../contract/failures';
import { messageProblem } from '../contract/message-check';
import { sendInputSchema, type Turn } from '../contract/thread-contract';
import { issueLines } from '../base/issue-lines';
import { isUnencrypted, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';
import { checkQueueRoom } from './thread-queue-limits';

/**
 * Throws the coded failure a message is refused with; `closedReason` set when the thread has
 * closed, `turns` the thread's turns (how many wait), `definition` the name of the definition the
 * thread runs (threadDefinitionName).
 */
export function checkSend(
  sent: unknown,
  closedReason: string | undefined,
  turns: readonly Turn[] = [],
  definition?: string,
): void {
  if (isUnencrypted(sent)) throw workflowFailure('NOT_ENCRYPTED', `send: ${UNENCRYPTED_REFUSAL}`);
  if (closedReason !== undefined) throw workflowFailure('THREAD_CLOSED', `the thread has closed: ${closedReason}`);
  const parsed = sendInputSchema.safeParse(sent);
  if (!parsed.success) throw workflowFailure('INVALID_INPUT', issueLines(parsed.error, 'message').join('; '));
  const problem = messageProblem(parsed.data);
  if (problem) throw workflowFailure('INVALID_INPUT', problem.message);
  const meant = parsed.data.definition;
  if (meant !== undefined && definition !== undefined && meant !== definition)
    throw workflowFailure('THREAD_DEFINITION', `the thread runs definition "${definition}", not "${meant}"`);
  checkQueueRoom(turns, parsed.data);
}
