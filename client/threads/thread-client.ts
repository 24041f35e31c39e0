/**
 * The client library of threads (docs/contracts.md#threads): open a thread (empty, or with its
 * first message), send a message and learn what became of it, read a thread, list threads. Built
 * on the contract's definitions (workflows/contract/thread-contract.ts), never string literals.
 * The HTTP routes (client/threads/routes/threads.ts) call it.
 */
import { boundThreadSettings } from '../definitions/bind-thread';
import { definitionMemo } from '../definitions/definition-memo';
import { createDefinitionRegistry, type DefinitionRegistry } from '../definitions/definition-registry';
import { randomUUID } from 'node:crypto';
import {
  QueryNotRegisteredError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateStage,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  messageOfUpdateQuery,
  messageQuery,
  sendInputSchema,
  sendUpdate,
  threadQuery,
  THREAD_WORKFLOW_TYPE,
  type SendInput,
  type SendResult,
  type ThreadInput,
  type ThreadPage,
  type ThreadView,
  type Turn,
} from '../../workflows/contract/thread-contract';
import type { threadWorkflow } from '../../workflows/thread/thread-workflow';
import { ClientError, isLlmErrorCode, type ClientErrorCode } from '../client-error';
import { updateRefusal } from '../update-refusal';
import { messageProblem } from '../../workflows/contract/message-check';
import { issueLines } from '../../workflows/base/issue-lines';
import { DEFAULT_QUERY_TIMEOUT_MS, isUnansweredQuery } from '../unanswered-query';
import { threadWorkflowId } from '../workflow-id';
import { KnownThreads } from './known-threads';
import { THREAD_KIND, withWorkflowOfKind } from '../workflow-kind-guard';

/** One thread in a list. */
export interface ThreadSummary {
  id: string;
  title: string;
  /** Temporal's status of its current run: RUNNING while open. */
  status: string;
  startedAt: string;
  closedAt?: string;
}

/** How a thread is opened: its settings (idle timeout, model, who opened it) and, optionally, an id. */
export interface OpenThread extends SendHooks {
  settings?: ThreadInput;
  workflowId?: string;
  /**
   * For a thread opened empty: the words its id (without encryption) and its summary in the
   * Temporal UI are made from, as a first message's are — e.g. the message about to be sent.
   */
  name?: string;
  /**
   * The agent definition the thread is bound to for life, by name (definitions/bind-thread.ts);
   * resolved from the registry this client was given.
   */
  definition?: string;
}

/** What a sender hears before its message is routed. */
export interface SendHooks {
  /**
   * The thread and the message's id as soon as the thread has recorded it, before it is routed and answered (a
   * chat reply's live deltas name it). Asked of the thread by the `send` update's own id (the
   * `messageOfUpdate` query); a thread on a worker from before that query is read back instead:
   * the newest turn with the message's text and sender.
   */
  accepted?: (threadId: string, messageId: string) => void;
}

export class ThreadClient {
  /** Threads opened or described here: a send to one skips the describe. */
  private readonly known = new KnownThreads();

  /**
   * @param plainIds false when payloads are encrypted: ids then carry no words of the message.
   * @param defaults settings of every thread opened here (e.g. `compressAtChars` from
   *   CAIRN_THREAD_COMPRESS_CHARS); an `open`'s own settings win.
   * @param definitions the agent definitions (`CAIRN_AGENTS`) an `open`'s `definition` names.
   */
  constructor(
    readonly temporal: Client,
    private readonly taskQueue: string,
    private readonly plainIds = true,
    private readonly queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
    private readonly defaults: ThreadInput = {},
    readonly definitions: DefinitionRegistry = createDefinitionRegistry([]),
  ) {}

  /** Opens a thread; with a first message (non-empty `text`) sends it and returns its message id too. */
  async open(first: Partial<SendInput> = {}, options: OpenThread = {}): Promise<{ id: string; messageId?: string }> {
    const message = first.text === undefined ? undefined : checkSend(first);
    const own = { ...this.defaults, ...options.settings };
    const settings = options.definition ? boundThreadSettings(this.definitions, options.definition, own) : own;
    const words = message?.text ?? options.name;
    const workflowId = options.workflowId ?? this.newId(words);
    const title = words?.slice(0, 200) ?? '';
    try {
      const started = await this.temporal.workflow.start<typeof threadWorkflow>(THREAD_WORKFLOW_TYPE, {
        taskQueue: this.taskQueue,
        workflowId,
        args: [settings],
        staticSummary: title ? `thread: ${title}` : 'thread',
        memo: { title, ...definitionMemo(settings.agent?.definition) },
      });
      this.known.remember(workflowId, started.firstExecutionRunId);
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        throw new ClientError('CONFLICT', `a thread with id "${workflowId}" already exists`, 'workflowId');
      throw err;
    }
    if (!message) return { id: workflowId };
    try {
      const { messageId } = await this.sendTo(this.handle(workflowId), message, options);
      return { id: workflowId, messageId };
    } catch (err) {
      // The thread is open and its turn recorded as failed: say which thread, so it can go on.
      if (err instanceof ClientError)
        throw new ClientError(
          err.code,
          `thread "${workflowId}" opened, its first message failed: ${err.message}`,
          err.field,
          {
            cause: err,
          },
        );
      throw err;
    }
  }

  /**
   * A new thread's id, from its first message's words (none with encryption on): picked before
   * the thread opens when its first message brings files, which go to its folder first.
   */
  newId(text = ''): string {
    return threadWorkflowId(this.plainIds ? text : '', randomUUID());
  }

  /**
   * Sends a message; resolves once it is routed. A closed thread throws `THREAD_CLOSED`. A thread
   * this client opened or described before is sent to at once (by its chain's first run, see
   * KnownThreads); when that finds no running thread, the guarded way below says why.
   */
  async send(id: string, body: SendInput, hooks: SendHooks = {}): Promise<SendResult> {
    const message = checkSend(body);
    const firstExecutionRunId = this.known.firstRunOf(id);
    if (firstExecutionRunId !== undefined) {
      try {
        return await this.sendTo(
          this.temporal.workflow.getHandle(id, undefined, { firstExecutionRunId }),
          message,
          hooks,
        );
      } catch (err) {
        // Closed, or the id taken by another workflow: nothing was delivered.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        this.known.forget(id);
      }
    }
    return this.guard(id, async ({ status, raw }) => {
      if (status.name !== 'RUNNING')
        throw new ClientError('THREAD_CLOSED', `thread "${id}" has closed (${status.name})`);
      this.known.remember(id, raw.workflowExecutionInfo?.firstRunId ?? undefined);
      return this.sendTo(this.handle(id), message, hooks);
    });
  }

  /**
   * The thread and a page of its turns (the newest 50 by default; `page.before` a message id for
   * older ones), each message's text cut past 2,000 characters; `AGENT_UNAVAILABLE` when no
   * worker answers in time. A thread whose workflow ended without closing itself (terminated,
   * timed out, failed) is shown closed, its reason the workflow's status: its turns still being
   * routed never will be.
   */
  async get(id: string, page: ThreadPage = {}): Promise<ThreadView> {
    return this.guard(id, async ({ status }) => {
      const view = await this.ask(id, () => this.handle(id).query(threadQuery, page));
      if (status.name === 'RUNNING' || view.status === 'closed') return view;
      return { ...view, status: 'closed', closedReason: `its workflow is ${status.name.toLowerCase()}` };
    });
  }

  /** One message's turn whole (its text uncut); `NOT_FOUND` for a message the thread does not keep. */
  async message(id: string, messageId: string): Promise<Turn> {
    return this.guard(id, async () => {
      const turn = await this.ask(id, () => this.handle(id).query(messageQuery, messageId));
      if (!turn) throw new ClientError('NOT_FOUND', `thread "${id}" keeps no message "${messageId}"`, 'messageId');
      return turn;
    });
  }

  /** A query of thread `id`, within the query timeout (`AGENT_UNAVAILABLE` past it). */
  private async ask<T>(id: string, query: () => Promise<T>): Promise<T> {
    try {
      return await this.temporal.withDeadline(Date.now() + this.queryTimeoutMs, query);
    } catch (err) {
      if (!isUnansweredQuery(err)) throw err;
      throw new ClientError('AGENT_UNAVAILABLE', `no worker answered thread "${id}" in time; try again`);
    }
  }

  /**
   * This deployment's threads (those on its task queue), newest first, one entry per thread
   * however often it continued as new. Only its own: another deployment's memos may be encrypted
   * under keys this one lacks.
   */
  async list(limit = 100): Promise<ThreadSummary[]> {
    const query =
      `WorkflowType = '${THREAD_WORKFLOW_TYPE}' AND ExecutionStatus != 'ContinuedAsNew' ` +
      `AND TaskQueue = ${visibilityLiteral(this.taskQueue)}`;
    const out: ThreadSummary[] = [];
    for await (const wf of this.temporal.workflow.list({ query })) {
      out.push({
        id: wf.workflowId,
        title: typeof wf.memo?.title === 'string' ? wf.memo.title : '',
        status: wf.status.name,
        startedAt: wf.startTime.toISOString(),
        ...(wf.closeTime ? { closedAt: wf.closeTime.toISOString() } : {}),
      });
      if (out.length >= limit) break;
    }
    return out;
  }

  private async sendTo(
    handle: WorkflowHandle<typeof threadWorkflow>,
    message: SendInput,
    { accepted }: SendHooks = {},
  ): Promise<SendResult> {
    try {
      if (!accepted) return await handle.executeUpdate(sendUpdate, { args: [message] });
      const updateId = randomUUID();
      const update = await handle.startUpdate(sendUpdate, {
        args: [message],
        updateId,
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      // Accepted: the thread recorded the message in the update's first workflow task. Its id
      // unreadable now (a query that failed): the sender hears it once the message is routed.
      const messageId = await this.messageOf(handle, updateId, message).catch(() => undefined);
      if (messageId) accepted(handle.workflowId, messageId);
      return await update.result();
    } catch (err) {
      throw refused(err) ?? err;
    }
  }

  /** The id of the message a `send` update recorded (see SendHooks.accepted). */
  private async messageOf(
    handle: WorkflowHandle<typeof threadWorkflow>,
    updateId: string,
    message: SendInput,
  ): Promise<string | undefined> {
    try {
      return (await handle.query(messageOfUpdateQuery, updateId)) ?? undefined;
    } catch (err) {
      if (!(err instanceof QueryNotRegisteredError)) throw err;
      const by = message.actor?.id ?? message.by;
      const view = await handle.query(threadQuery);
      return [...view.turns].reverse().find((t) => t.text === message.text && t.by === by)?.messageId;
    }
  }

  private handle(id: string): WorkflowHandle<typeof threadWorkflow> {
    return this.temporal.workflow.getHandle(id);
  }

  private guard<T>(id: string, call: Parameters<typeof withWorkflowOfKind<T>>[3]): Promise<T> {
    return withWorkflowOfKind(this.temporal, id, THREAD_KIND, call);
  }
}

/** A visibility query string literal. */
function visibilityLiteral(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The body checked as the workflow checks it (its shape, then its mode and limits as an agent
 * reads them), so a bad one is refused before any call — and `open` starts no thread for it.
 */
function checkSend(body: unknown): SendInput {
  const parsed = sendInputSchema.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || undefined;
    throw new ClientError('INVALID_INPUT', issueLines(parsed.error, 'message').join('; '), field);
  }
  const problem = messageProblem(parsed.data);
  if (problem) throw new ClientError('INVALID_INPUT', problem.message, problem.field);
  // Only a task turn's agent reads files: a message with files is not left to the router.
  return parsed.data.files?.length ? { ...parsed.data, kind: 'task' } : parsed.data;
}

/** A refused `send` as a ClientError, by the code the workflow gave it; undefined for anything else. */
function refused(err: unknown): ClientError | undefined {
  return updateRefusal(
    err,
    (type): type is ClientErrorCode =>
      type === 'INVALID_INPUT' ||
      type === 'THREAD_CLOSED' ||
      type === 'THREAD_DEFINITION' ||
      type === 'QUEUE_FULL' ||
      isLlmErrorCode(type),
  );
}
