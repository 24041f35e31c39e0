/**
 * Hands a front-door message to its thread: in the thread `X-Cairn-Thread` names, as the answer
 * to the running turn's open `ask.query` when it has one (the agent client's answer path, under
 * the sender, noting the messages queued behind that turn), else as the thread's next message;
 * without the header, as the first message of a new thread carrying the earlier messages as
 * context. A thread bound to another definition than the request's `model` refuses it
 * (THREAD_DEFINITION). `accepted` hears the thread and message as soon as the thread has recorded it (before
 * it is routed and a chat reply written): a streamed answer opens then, to pass the reply on as
 * it streams.
 */
import { definitionOfModel } from '../../definitions/door-model';
import { DEFAULT_DEFINITION } from '../../definitions/definition-registry';
import type { Context } from 'hono';
import { ClientError } from '../../client-error';
import { runningTurn } from '../follow-turn';
import type { AgentsPort } from '../../agents/agents-port';
import { fromSender } from '../thread-requests';
import type { ThreadsPort } from '../threads-port';
import { firstMessageText, type ChatCompletionBody, type ChatTurnRequest } from './chat-request';
import type { CairnExtension } from './completion-objects';
import { queuedMessages, type QueuedMessage } from './follow-queued';
import type { SendInput } from '../../../workflows/contract/thread-contract';
import { principalOf } from '../../../workflows/model/principal';

/** A message as the front door sends it (the actor is set from the principal). */
type Message = Omit<SendInput, 'actor'>;

/** Where the message went: its thread and message (the turn to follow), and what became of it. */
export interface Delivered {
  thread: string;
  messageId: string;
  cairn: CairnExtension;
  /** An answer's: the messages queued behind the answered turn, which its response goes on with. */
  queued?: QueuedMessage[];
}

/** Delivers the message (see the file comment). */
export async function deliverMessage(
  c: Context,
  ports: { threads: ThreadsPort; agents: AgentsPort },
  body: ChatCompletionBody,
  request: ChatTurnRequest,
  threadId: string | undefined,
  accepted?: (thread: string, messageId: string) => void,
): Promise<Delivered> {
  const options = {
    ...(body.cairn?.kind ? { kind: body.cairn.kind } : {}),
    ...(body.cairn?.policy ? { policy: body.cairn.policy } : {}),
  };
  if (threadId === undefined) {
    const first = fromSender<Message>(c, { text: firstMessageText(request), ...options });
    const opener = first.actor ? { principal: principalOf(first.actor) } : {};
    const { id, messageId } = await ports.threads.open(first, {
      settings: opener,
      ...definitionOfModel(body.model),
      ...(accepted ? { accepted } : {}),
    });
    if (messageId === undefined) throw new Error(`thread ${id} opened without its first message`);
    return { thread: id, messageId, cairn: { thread: id, messageId } };
  }
  const message = fromSender<Message>(c, { text: request.text, ...options, definition: body.model });
  const answered = await answerOpenQuestion(c, ports, threadId, request.text, message.by, body.model);
  if (answered) return answered;
  const { messageId, disposition } = await ports.threads.send(threadId, message, accepted ? { accepted } : {});
  return { thread: threadId, messageId, cairn: { thread: threadId, messageId, disposition } };
}

/**
 * The running turn's oldest open `ask.query`, answered with `text`; undefined when there is none
 * (or it closed meanwhile: then the text goes to the thread as a message).
 */
async function answerOpenQuestion(
  c: Context,
  ports: { threads: ThreadsPort; agents: AgentsPort },
  threadId: string,
  text: string,
  by: string | undefined,
  model: string,
): Promise<Delivered | undefined> {
  const { turns, definition } = await ports.threads.get(threadId);
  // An answer is the thread's too: one naming another definition is refused as a message would be.
  const bound = definition?.name ?? DEFAULT_DEFINITION;
  if (model !== bound)
    throw new ClientError(
      'THREAD_DEFINITION',
      `thread "${threadId}" runs definition "${bound}", not "${model}"`,
      'model',
    );
  const turn = runningTurn(turns);
  if (turn?.agentId === undefined) return undefined;
  const agentId = turn.agentId;
  const state = await ports.agents.state(agentId, Number.MAX_SAFE_INTEGER);
  const question = state.interactions.find((i) => i.status === 'open' && i.kind === 'ask.query');
  if (!question) return undefined;
  const principal = c.get('principal');
  try {
    await ports.agents.answer(agentId, {
      interactionId: question.id,
      answer: { text },
      ...(by !== undefined ? { by } : {}),
      actor: { ...principal, id: by ?? principal.id, roles: [...principal.roles] },
    });
  } catch (err) {
    if (err instanceof ClientError && err.code === 'NOT_OPEN') return undefined;
    throw err;
  }
  return {
    thread: threadId,
    messageId: turn.messageId,
    cairn: {
      thread: threadId,
      messageId: turn.messageId,
      disposition: 'answer',
      answered: { agentId, interactionId: question.id },
    },
    queued: queuedMessages(turns),
  };
}
