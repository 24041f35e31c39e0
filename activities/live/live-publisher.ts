/**
 * Publishes model calls to their agent's live stream (`<agent id>/stream`), as the LLM activity
 * streams them: each call attempt's entries go in batches by the `livePublish` signal — with
 * signal-with-start, so the first batch of an agent starts its stream — one batch in flight at a
 * time: a call's start goes with its first delta (or alone after `startMs`), that first delta
 * with whatever else arrived in the same turn of the event loop, later ones at most `batchMs`
 * apart, consecutive deltas of one channel merged. A short call thus costs one signal, not two
 * (each signal is a server write and a workflow task of the stream). A retried attempt first says that it supersedes the
 * one before. Publishing is best effort and never fails a call: the durable record is the
 * activity's result. A stream that has already ended (its agent has) refuses the start and the
 * call goes quiet.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { LiveDelta } from '../llm/accumulate-chunks';
import {
  LIVE_STREAM_WORKFLOW_TYPE,
  liveStreamId,
  livePublishSignal,
  type LiveCall,
  type LiveEntry,
  type AgentStreamWorkflow,
  type LivePublish,
} from '../../workflows/contract/live-messages';
import type { LiveCallHandle, LiveOutcome, LivePublisher } from './live-call';

/** How batches go out. */
export interface LivePublisherOptions {
  client: Client;
  /** The workflow task queue (`CAIRN_TASK_QUEUE`): where stream workflows run. */
  taskQueue: string;
  /** The longest a delta waits to be sent after the first (ms); 200 by default. */
  batchMs?: number;
  /** The longest a call's start waits to go out with its first delta (ms); 100 by default. */
  startMs?: number;
  /** How long a finishing call waits for its last batch to go out (ms); 3000 by default. */
  flushTimeoutMs?: number;
  /** Where a failed send is said (once per call). */
  warn?: (message: string) => void;
}

/** The longest one entry's text grows by merging before a new entry starts. */
const MAX_ENTRY_CHARS = 16 * 1024;

/** Sends one batch; 'gone' when the stream has ended. */
type Send = (batch: LivePublish) => Promise<'sent' | 'gone'>;

/** A publisher over a Temporal client. */
export function createLivePublisher(options: LivePublisherOptions): LivePublisher {
  const send: Send = async (batch) => {
    try {
      await options.client.workflow.signalWithStart<AgentStreamWorkflow, [LivePublish]>(LIVE_STREAM_WORKFLOW_TYPE, {
        workflowId: liveStreamId(batch.call.agentId),
        taskQueue: options.taskQueue,
        args: [{ agentId: batch.call.agentId }],
        signal: livePublishSignal,
        signalArgs: [batch],
        // An ended stream stays ended: a late attempt must not start another.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        staticSummary: `live output of ${batch.call.agentId}`,
      });
      return 'sent';
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'gone';
      throw err;
    }
  };
  return {
    open: (call) =>
      new CallLine(call, send, {
        batchMs: options.batchMs ?? 200,
        startMs: options.startMs ?? 100,
        flushTimeoutMs: options.flushTimeoutMs ?? 3_000,
        warn: options.warn ?? (() => {}),
      }),
  };
}

/** One call attempt's batches. */
class CallLine implements LiveCallHandle {
  private buffer: LiveEntry[] = [];
  private seq = 0;
  private begun = false;
  private firstDelta = true;
  private sending = false;
  private again = false;
  private gone = false;
  private warned = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private soon: ReturnType<typeof setImmediate> | undefined;
  private drained: (() => void)[] = [];

  constructor(
    private readonly call: LiveCall,
    private readonly send: Send,
    private readonly timing: {
      batchMs: number;
      startMs: number;
      flushTimeoutMs: number;
      warn: (message: string) => void;
    },
  ) {}

  started(streaming: boolean): void {
    if (this.begun) return;
    this.begun = true;
    const at = Date.now();
    // A retry: the attempt before it (partial text, maybe a dead worker's) is dropped by viewers.
    if (this.call.attempt > 1) this.buffer.push({ type: 'call.superseded', by: this.call.attempt, at });
    this.buffer.push({ type: 'call.started', streaming, at });
    this.timer ??= setTimeout(() => this.flush(), this.timing.startMs);
  }

  deltas(deltas: LiveDelta[]): void {
    for (const delta of deltas) this.add(delta);
    if (this.firstDelta) {
      // At once, but with the rest of what arrived together (a fast reply: all of it).
      this.firstDelta = false;
      this.soon ??= setImmediate(() => this.flush());
    } else this.schedule();
  }

  async finished(outcome: LiveOutcome, details: { finishReason?: string; error?: string } = {}): Promise<void> {
    if (!this.begun) this.started(false);
    this.buffer.push({ type: 'call.finished', outcome, ...details, at: Date.now() });
    this.flush();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timing.flushTimeoutMs)));
    await Promise.race([this.whenDrained(), timeout]);
    clearTimeout(timer);
  }

  private add(delta: LiveDelta): void {
    const last = this.buffer.at(-1);
    const mergeable =
      last?.type === 'delta' &&
      last.channel === delta.channel &&
      last.toolCallId === delta.toolCallId &&
      delta.toolName === undefined &&
      last.text.length + delta.text.length <= MAX_ENTRY_CHARS;
    if (mergeable) {
      last.text += delta.text;
      return;
    }
    this.buffer.push({
      type: 'delta',
      channel: delta.channel,
      text: delta.text,
      ...(delta.toolCallId !== undefined ? { toolCallId: delta.toolCallId } : {}),
      ...(delta.toolName !== undefined ? { toolName: delta.toolName } : {}),
    });
  }

  private schedule(): void {
    if (this.soon) return;
    this.timer ??= setTimeout(() => this.flush(), this.timing.batchMs);
  }

  /** Sends what is buffered now, or right after the batch in flight. */
  private flush(): void {
    clearTimeout(this.timer);
    clearImmediate(this.soon);
    this.timer = undefined;
    this.soon = undefined;
    if (this.gone || this.buffer.length === 0) return this.settle();
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    this.seq += 1;
    const batch: LivePublish = {
      publisher: `${this.call.modelCallId}#${this.call.attempt}`,
      seq: this.seq,
      call: this.call,
      entries: this.buffer,
    };
    this.buffer = [];
    void this.deliver(batch).finally(() => {
      this.sending = false;
      if (this.again) {
        this.again = false;
        this.flush();
      } else if (this.buffer.length > 0) this.schedule();
      else this.settle();
    });
  }

  private async deliver(batch: LivePublish): Promise<void> {
    try {
      if ((await this.send(batch)) === 'gone') this.gone = true;
    } catch (err) {
      if (this.warned) return;
      this.warned = true;
      this.timing.warn(`live stream of ${this.call.agentId}: a batch was not delivered (${String(err)})`);
    }
  }

  private whenDrained(): Promise<void> {
    if (!this.sending && (this.buffer.length === 0 || this.gone)) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private settle(): void {
    if (this.sending || (this.buffer.length > 0 && !this.gone)) return;
    for (const resolve of this.drained.splice(0)) resolve();
  }
}
