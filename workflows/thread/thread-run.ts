/**
 * One run of a thread: its turns, and its state — one `phase` (thread-phase.ts: idle, routing a
 * message, running a task turn, closed) and one queue of messages not yet routed. Its handlers,
 * all registered in `serve`, only read, validate and enqueue: `send` records the message with
 * its sender, puts it in the queue and waits for its answer. The main loop (thread-workflow.ts)
 * does the work through the methods here, one thing at a time: while a task turn runs, a
 * message meets its policy — `queue` (the default: the next turn once the running one ends),
 * `reject`, or `steer` (signalled to the running agent's steps; thread-policy.ts); otherwise the
 * queue's first message is routed (its `kind`, else the `route-message` call) and answered in
 * words or started as an agent. When a turn ends, the messages steered into it that its steps'
 * models did not hear (its result's `heard`) are queued again as the turns that follow.
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
  type SendInput,
  type SendResult,
  type ThreadSettings,
  type Turn,
} from '../contract/thread-contract';
import { describeFailure } from '../runtime/describe-failure';
import { chatReply, threadCalls, type ThreadCalls } from './thread-calls';
import { routeOf } from './thread-route';
import {
  boundLimits,
  endOfFailure,
  endOfResult,
  senderPrincipal,
  startTurn,
  turnInput,
  type TurnAgent,
} from './thread-task';
import { threadCarry, type ThreadCarry } from './thread-carry';
import { ThreadBudget } from '../model/thread/thread-budget';
import { threadView } from '../model/thread/thread-view';
import { showThreadDetails } from './thread-ui';
import { threadDefinitionName } from '../model/agent/definition-snapshot';
import { checkSend } from './thread-check';
import { answer, backInQueue, meetPolicy, settle, type Arrival } from './thread-policy';
import { ThreadMemory } from './thread-memory';
import { senderOfMessage } from './steer-owner';
import { nextPhase, requeue, unheard, type PhaseEvent, type QueuedSend, type ThreadPhase } from './thread-phase';

export class ThreadRun {
  readonly threadId = workflowInfo().workflowId;
  readonly turns: Turn[];
  /** What the thread is doing; moved only by `move` (thread-phase.ts). */
  phase: ThreadPhase<TurnAgent> = { name: 'idle' };
  /** Messages not yet routed, in message order: new ones, and ones waiting for the running turn to end. */
  queue: QueuedSend[] = [];
  /** The number the next message gets. */
  private nextMessage: number;
  /** The number of this run's first message: a run that has taken none idles, however long its history. */
  private readonly firstMessage: number;
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
    this.firstMessage = this.nextMessage;
    this.budget = new ThreadBudget(settings.budget, carry?.usage);
    this.memory = new ThreadMemory(this.turns, settings.compressAtChars, carry?.title, carry?.summary);
  }

  /** Every handler of the thread, in one place: they read, validate and enqueue; the main loop does the work. */
  serve(): this {
    setHandler(threadQuery, (page) =>
      threadView(
        this.threadId,
        this.turns,
        this.budget.usage,
        this.closedReason(),
        this.memory,
        page,
        this.settings.agent,
      ),
    );
    setHandler(messageQuery, (messageId) => this.turns.find((t) => t.messageId === messageId) ?? null);
    setHandler(messageOfUpdateQuery, (updateId) => this.byUpdate.get(updateId) ?? null);
    setHandler(sendUpdate, (sent) => this.enqueue(sent), {
      validator: (sent) => checkSend(sent, this.closedReason(), this.turns, threadDefinitionName(this.settings.agent)),
    });
    return this;
  }

  /** Shows the thread in the Temporal UI: its newest turns and what it waits on (thread-ui.ts). */
  showDetails(): void {
    showThreadDetails(this.phase, this.turns, this.memory.title);
  }

  /** Why the thread closed; undefined while it is open. */
  closedReason(): string | undefined {
    return this.phase.name === 'closed' ? this.phase.reason : undefined;
  }

  /** Whether this run has taken a message. */
  tookMessages(): boolean {
    return this.nextMessage > this.firstMessage;
  }

  /** Nothing to do: no turn runs, none waits, no message is being handled. */
  idle(): boolean {
    return this.phase.name === 'idle' && this.queue.length === 0;
  }

  /** Something for the main loop: a turn to settle, messages to meet their policy, or the queue's next to route. */
  hasWork(): boolean {
    const { phase } = this;
    if (phase.name === 'turn') return phase.ended !== undefined || this.queue.some((m) => m.told === undefined);
    return phase.name === 'idle' && this.queue.length > 0;
  }

  /** What a run hands the next (only when idle). */
  carry(): ThreadCarry {
    return threadCarry(this.turns, this.nextMessage, this.budget.usage, this.memory);
  }

  /** What the thread's own model calls need. */
  calls(): ThreadCalls {
    return threadCalls(this.threadId, this.settings, this.budget);
  }

  /** Closes the thread (only when idle): later messages are refused. */
  close(reason: string): void {
    this.move({ type: 'close', reason });
  }

  /** The `send` handler: records the message and queues it; answers once the main loop has met or routed it. */
  private async enqueue(raw: SendInput): Promise<SendResult> {
    const sent = sendInputSchema.parse(raw);
    const n = this.nextMessage++;
    const by = sent.actor?.id ?? sent.by;
    const turn: Turn = { messageId: threadMessageId(n), ...(by ? { by } : {}), text: sent.text, status: 'routing' };
    this.turns.push(turn);
    this.byUpdate.set(currentUpdateInfo()?.id ?? '', turn.messageId);
    const arrival: Arrival = { n, sent };
    this.queue.push(arrival);
    await condition(() => arrival.answer !== undefined);
    const { answer } = arrival;
    if (answer && 'failure' in answer) throw answer.failure;
    return answer?.result ?? { messageId: turn.messageId, disposition: 'queued' };
  }

  /** A task turn ended: its turn records how, and the messages steered in that nobody heard are queued again. */
  settleTurn(): boolean {
    const { phase } = this;
    if (phase.name !== 'turn' || !phase.ended) return false;
    Object.assign(this.turnOf(phase.n), phase.ended.end);
    const back = unheard(phase.steered, phase.ended);
    for (const message of back) backInQueue(this.turnOf(message.n));
    this.queue = requeue(this.queue, back);
    this.move({ type: 'settled' });
    return true;
  }

  /** While a turn runs, the messages that arrived meet their policy; whether any did. */
  meetArrivals(): boolean {
    const { phase } = this;
    if (phase.name !== 'turn' || phase.ended) return false;
    const arrived = this.queue.filter((m) => m.told === undefined);
    for (const message of arrived) {
      const met = meetPolicy(this.turnOf(message.n), message, phase.agent, phase.owner);
      if (met.waits) message.told = 'queued';
      else this.queue = this.queue.filter((m) => m !== message);
      if (met.steered) this.move({ type: 'steered', message: { n: message.n, sent: message.sent } });
      answer(message, { result: met.result });
    }
    return arrived.length > 0;
  }

  /** Routes the queue's first message and answers it, or starts its agent (only when idle). */
  async startNext(): Promise<void> {
    const next = this.queue.shift();
    if (!next) return;
    const turn = this.turnOf(next.n);
    turn.status = 'routing'; // no longer waiting: followers see it being routed and answered
    this.move({ type: 'route', n: next.n });
    try {
      answer(next, { result: await this.handle(turn, next) });
    } catch (failure) {
      answer(next, { failure }); // a sender told `queued` long ago waits for nothing: the turn says it
    } finally {
      if (this.phase.name === 'routing') this.move({ type: 'answered' });
    }
  }

  private async handle(turn: Turn, { n, sent, told }: QueuedSend): Promise<SendResult> {
    const spent = this.budget.refusal();
    if (spent) return settle(turn, { disposition: told ?? 'rejected', status: 'rejected', error: spent });
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
      const child = await startTurn(this.threadId, n, sent, input);
      this.move({ type: 'started', agent: child, owner: senderOfMessage(sent) });
      child.result().then(
        (result) => {
          this.budget.add(result.usage);
          this.move({ type: 'ended', ended: { end: endOfResult(result), heard: result.heard ?? [] } });
        },
        (err: unknown) => this.move({ type: 'ended', ended: { end: endOfFailure(err, this.budget) } }),
      );
      return settle(turn, { disposition: told ?? 'started', status: 'running', agentId: child.workflowId });
    } catch (err) {
      // A model call or start that failed for good: the turn fails, the thread goes on, the sender hears the code.
      const failure = describeFailure(err);
      settle(turn, { disposition: told ?? 'answered', status: 'failed', error: failure.message });
      throw workflowFailure(failure.code, failure.message);
    }
  }

  private move(event: PhaseEvent<TurnAgent>): void {
    this.phase = nextPhase(this.phase, event);
  }

  private turnOf(n: number): Turn {
    const turn = this.turns.find((t) => t.messageId === threadMessageId(n));
    // Queued messages are never folded (only turns before the newest fold, between turns): a bug if missing.
    if (!turn) throw new Error(`thread: no turn for message ${n}`);
    return turn;
  }
}
