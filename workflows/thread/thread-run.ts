/**
 * One run of a thread: its turns, the messages queued behind a running task turn, and the `send`
 * and `thread` handlers. A message is recorded with its sender at once, then routed one at a
 * time: while a task turn runs (or earlier messages wait) it meets its policy — `queue` (the
 * default: the next turn once the running one ends), `reject`, or `steer` (handed to the running
 * agent's steps). Otherwise it is routed (its `kind`, else the `route-message` call) and answered
 * in words or started as an agent. The main loop (thread-workflow.ts) runs the queue and idles.
 */
import { condition, currentUpdateInfo, setHandler, workflowInfo } from '@temporalio/workflow';
import { workflowFailure } from '../contract/failures';
import {
  messageOfUpdateQuery,
  messageQuery,
  sendInputSchema,
  sendUpdate,
  threadMessageId,
  threadQuery,
  type Disposition,
  type SendInput,
  type SendResult,
  type ThreadSettings,
  type Turn,
} from '../contract/thread-contract';
import { describeFailure } from '../describe-failure';
import { chatReply, type ThreadCalls } from './thread-calls';
import { routeOf } from './thread-route';
import {
  endOfFailure,
  endOfResult,
  senderPrincipal,
  startTurn,
  turnInput,
  boundLimits,
  type TurnAgent,
  type TurnEnd,
} from './thread-task';
import { threadCarry, type ThreadCarry } from './thread-carry';
import { ThreadBudget } from './thread-budget';
import { threadView } from './thread-view';
import { checkSend } from './thread-check';
import { meetPolicy, serveSteerClosed, settle, type QueuedSend } from './thread-policy';
import { ThreadMemory } from './thread-memory';
import { senderOfMessage } from './steer-owner';
import type { Sender } from '../tools/approval-reuse';

export class ThreadRun {
  readonly threadId = workflowInfo().workflowId;
  readonly turns: Turn[];
  /** The number the next message gets. */
  private nextMessage: number;
  /** Messages waiting for the running turn to end. */
  readonly queue: QueuedSend[] = [];
  /** Messages steered into the running turn's agent, until it may hand one back (thread-policy.ts). */
  readonly steered = new Map<string, { n: number; sent: SendInput }>();
  /** The running task turn's agent. */
  running: TurnAgent | undefined;
  /** Who sent the running turn's message: they (or an admin) may steer it. */
  runningOwner: Sender | undefined;
  /** The agent that said it starts no more steps. */
  steerClosed: string | undefined;
  /** Messages whose handler has not returned yet. */
  pending = 0;
  /** A message is being routed (or answered): the next waits. */
  routing = false;
  /** Counts messages: the idle wait wakes on a change. */
  received = 0;
  closedReason: string | undefined;
  /** What the thread spent, against its budget. */
  readonly budget: ThreadBudget;
  /** Its title and the summary of the turns folded away. */
  readonly memory: ThreadMemory;
  /** The message each `send` update of this run recorded, by update id. */
  private readonly byUpdate = new Map<string, string>();

  constructor(
    readonly settings: ThreadSettings,
    carry: ThreadCarry | undefined,
  ) {
    this.turns = carry?.turns ?? [];
    this.nextMessage = carry?.nextMessage ?? 1;
    this.budget = new ThreadBudget(settings.budget, carry?.usage);
    this.memory = new ThreadMemory(this.turns, settings.compressAtChars, carry?.title, carry?.summary);
  }

  /** Nothing to do: no turn runs, none waits, no message is being handled. */
  idle(): boolean {
    return this.running === undefined && this.queue.length === 0 && this.pending === 0 && !this.routing;
  }

  /** The queue's next message may start: nothing runs and nothing is being routed. */
  canStartNext(): boolean {
    return this.running === undefined && !this.routing && this.queue.length > 0;
  }

  /** What a run hands the next (only when idle). */
  carry(): ThreadCarry {
    return threadCarry(this.turns, this.nextMessage, this.budget.usage, this.memory);
  }

  /** What the thread's own model calls need. */
  calls(): ThreadCalls {
    const { model, agent } = this.settings;
    return {
      threadId: this.threadId,
      ...(model ? { model } : {}),
      ...(agent?.systemPrompt ? { instructions: agent.systemPrompt } : {}),
      spent: (u) => this.budget.add(u),
      budgetSpent: () => this.budget.refusal() !== undefined,
    };
  }

  serve(): this {
    setHandler(threadQuery, (page) =>
      threadView(this.threadId, this.turns, this.budget.usage, this.closedReason, this.memory, page),
    );
    setHandler(messageQuery, (messageId) => this.turns.find((t) => t.messageId === messageId) ?? null);
    setHandler(sendUpdate, (sent) => this.receive(sent), {
      validator: (sent) => checkSend(sent, this.closedReason, this.turns),
    });
    setHandler(messageOfUpdateQuery, (updateId) => this.byUpdate.get(updateId) ?? null);
    serveSteerClosed(this);
    return this;
  }

  private async receive(raw: SendInput): Promise<SendResult> {
    const sent = sendInputSchema.parse(raw);
    const n = this.nextMessage++;
    const by = sent.actor?.id ?? sent.by;
    const turn: Turn = { messageId: threadMessageId(n), ...(by ? { by } : {}), text: sent.text, status: 'routing' };
    this.turns.push(turn);
    this.byUpdate.set(currentUpdateInfo()?.id ?? '', turn.messageId);
    this.received++;
    this.pending++;
    let claimed = false;
    try {
      // Until nothing is routed or folded. Messages woken together would all find it so: the
      // first claims `routing` in the wait's own check, which runs for one message after another.
      await condition(() => this.free() && this.claimRouting());
      claimed = true;
      if (this.running !== undefined || this.queue.length > 0) return meetPolicy(this, turn, n, sent);
      return await this.handle(turn, n, sent);
    } finally {
      this.pending--;
      if (claimed) this.routing = false;
    }
  }

  private free(): boolean {
    return !this.routing && !this.memory.folding;
  }

  private claimRouting(): true {
    this.routing = true;
    return true;
  }

  /** Starts the queue's next message (the main loop calls it when `canStartNext`). */
  async startNext(): Promise<void> {
    const next = this.queue.shift();
    const turn = next && this.turns.find((t) => t.messageId === threadMessageId(next.n));
    if (!next || !turn) return;
    turn.status = 'routing'; // no longer waiting: followers see it being routed and answered
    // Its sender was told `queued` long ago: a failure is on the turn, nobody waits for it.
    await this.handle(turn, next.n, next.sent, next.told ?? 'queued').catch(() => undefined);
  }

  /** Routes a message and answers it, or starts its agent; one message at a time. */
  private async handle(turn: Turn, n: number, sent: SendInput, told?: Disposition): Promise<SendResult> {
    const spent = this.budget.refusal();
    if (spent) return settle(turn, { disposition: told ?? 'rejected', status: 'rejected', error: spent });
    this.routing = true;
    try {
      const calls = this.calls();
      const earlier = this.memory.context(turn);
      const route = await routeOf(calls, turn.messageId, sent);
      // The router's call may have spent what was left: refused unrouted (no kind, no title call).
      const spentRouting = this.budget.refusal();
      if (spentRouting)
        return settle(turn, { disposition: told ?? 'rejected', status: 'rejected', error: spentRouting });
      Object.assign(turn, { kind: route.kind, ...('reason' in route ? { reason: route.reason } : {}) });
      if (route.kind === 'chat') {
        turn.reply = await chatReply(calls, turn.messageId, sent.text, earlier);
        return settle(turn, { disposition: told ?? 'answered', status: 'completed' });
      }
      const { agent } = this.settings;
      const limits = this.budget.turnLimits(boundLimits(agent, sent.limits));
      const principal = senderPrincipal(sent, this.settings.principal);
      const input = turnInput(this.threadId, n, { ...sent, ...(limits ? { limits } : {}) }, earlier, principal, agent);
      this.steered.clear(); // the agent they were steered into has ended
      const child = await startTurn(this.threadId, n, sent, input);
      this.running = child;
      this.runningOwner = senderOfMessage(sent);
      child.result().then(
        (result) => {
          this.budget.add(result.usage);
          this.ended(turn, endOfResult(result));
        },
        (err: unknown) => this.ended(turn, endOfFailure(err, this.budget)),
      );
      return settle(turn, { disposition: told ?? 'started', status: 'running', agentId: child.workflowId });
    } catch (err) {
      // A model call or start that failed for good: the turn fails, the thread goes on, the sender hears the code.
      const failure = describeFailure(err);
      settle(turn, { disposition: told ?? 'answered', status: 'failed', error: failure.message });
      throw workflowFailure(failure.code, failure.message);
    } finally {
      this.routing = false;
    }
  }

  private ended(turn: Turn, end: TurnEnd): void {
    Object.assign(turn, end);
    this.running = undefined;
  }
}
