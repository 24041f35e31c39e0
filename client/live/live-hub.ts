/**
 * One subscriber per agent per web server: the hub keeps a single long poll on each watched
 * agent's live stream (`<agent id>/stream`) and fans what comes back out to every viewer of that
 * agent, so a hundred browsers cost the stream workflow one update in flight, not a hundred (it
 * allows ten). Each feed mirrors the stream's retained items, so a viewer that joins or
 * reconnects gets them from its `Last-Event-ID` — or a reset when that offset is no longer
 * retained — and then the live ones. A feed starts with its first viewer and stops with its last.
 *
 * A stream that does not exist yet (no model call has streamed) is waited for while the agent
 * runs; an agent that has ended is told to its stream (`liveEnd`) when the stream did not hear
 * it (the agent was terminated), so the stream and its viewers end in-band either way.
 *
 * A thread's stream (`<thread id>/stream`, its `chat` and `route-message` calls) is followed the
 * same way, with one difference: a thread may idle for weeks before its next reply, so instead
 * of looking again and again for a stream not started yet, the feed starts it (an idle stream
 * has no workflow task; its one waiting poll is answered empty every minute). The stream ends
 * when the thread closes (the thread signals `liveEnd`; a terminated one is told by the feed at
 * the first empty poll after that, as a terminated agent's is).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  LIVE_DRAINING,
  LIVE_STREAM_WORKFLOW_TYPE,
  liveEndSignal,
  livePollUpdate,
  liveReadQuery,
  livePageSchema,
  liveStreamId,
  type LivePage,
} from '../../workflows/contract/live-messages';
import { ClientError } from '../client-error';
import { AGENT_KIND, THREAD_KIND, withWorkflowOfKind, type WorkflowKind } from '../workflow-kind-guard';
import type { agentStreamWorkflow } from '../../workflows/live/live-stream-workflow';
import { eventsOf, type LiveEvent } from './live-events';

/** What a viewer is told. Called in stream order; never concurrently. */
export interface LiveListener {
  event(event: LiveEvent): void;
  /** The offset after `Last-Event-ID` is no longer retained: events go on from `from`. */
  reset(from: number): void;
  /** The stream has ended (after its `end` event, or with none when the agent never streamed). */
  end(): void;
}

export interface LiveHubOptions {
  client: Client;
  /** This server's name in the streams' subscriber lists; a random one by default. */
  subscriberId?: string;
  /**
   * The wait after a failed poll, and the longest between two looks for a stream not started
   * yet (ms); those looks start at FIRST_LOOK_MS and double, so text shows soon after it starts.
   */
  retryMs?: number;
}

/** The first wait before looking again for a stream not started yet (ms). */
export const FIRST_LOOK_MS = 50;

/** The feeds of one web server. */
export class LiveHub {
  private readonly feeds = new Map<string, AgentFeed>();
  private readonly subscriber: string;

  constructor(private readonly options: LiveHubOptions) {
    this.subscriber = options.subscriberId ?? `web-${randomUUID()}`;
  }

  /** Throws ClientError NOT_FOUND unless `agentId` is an agent (or, with THREAD_KIND, a thread). */
  async requireAgent(agentId: string, kind: WorkflowKind = AGENT_KIND): Promise<void> {
    await withWorkflowOfKind(this.options.client, agentId, kind, () => Promise.resolve());
  }

  /**
   * Follows `agentId`'s stream after offset `lastSeen` (all retained items when undefined);
   * returns the function that stops following. With THREAD_KIND, `agentId` is a thread's id.
   */
  follow(
    agentId: string,
    lastSeen: number | undefined,
    listener: LiveListener,
    kind: WorkflowKind = AGENT_KIND,
  ): () => void {
    let feed = this.feeds.get(agentId);
    if (!feed) {
      const created = new AgentFeed(agentId, kind, this.options, this.subscriber, () => {
        if (this.feeds.get(agentId) === created) this.feeds.delete(agentId);
      });
      this.feeds.set(agentId, created);
      feed = created;
    }
    return feed.add(listener, lastSeen);
  }

  /** How many agents this server subscribes to now: one feed each, whatever its viewers. */
  get subscriptions(): number {
    return this.feeds.size;
  }
}

interface Viewer {
  listener: LiveListener;
  lastSeen: number | undefined;
  /** Given its backlog: from now on it gets what comes. */
  caughtUp: boolean;
}

/** One agent's subscription and its viewers. */
class AgentFeed {
  private readonly viewers = new Set<Viewer>();
  private readonly stop = new AbortController();
  private mirror: LiveEvent[] = [];
  private base = 0;
  private next = 0;
  private synced = false;
  private ended = false;

  constructor(
    private readonly agentId: string,
    private readonly kind: WorkflowKind,
    private readonly options: LiveHubOptions,
    private readonly subscriber: string,
    private readonly onClose: () => void,
  ) {
    // run() handles what Temporal answers; anything else ends this feed's viewers (they reconnect).
    void this.run()
      .catch(() => this.finish())
      .finally(() => this.close());
  }

  add(listener: LiveListener, lastSeen: number | undefined): () => void {
    const viewer: Viewer = { listener, lastSeen, caughtUp: false };
    this.viewers.add(viewer);
    if (this.synced) this.catchUp(viewer);
    return () => {
      this.viewers.delete(viewer);
      if (this.viewers.size === 0) this.close();
    };
  }

  private close(): void {
    this.stop.abort();
    this.onClose();
  }

  private get handle() {
    return this.options.client.workflow.getHandle(liveStreamId(this.agentId));
  }

  private async run(): Promise<void> {
    const { client } = this.options;
    const retryMs = this.options.retryMs ?? 1_000;
    // A viewer usually arrives just before the first model call starts the stream: look again soon, then less often.
    let lookMs = Math.min(FIRST_LOOK_MS, retryMs);
    while (!this.stop.signal.aborted && !this.ended) {
      let page: LivePage | undefined;
      try {
        const answer = await client.withAbortSignal(this.stop.signal, () =>
          this.handle.executeUpdate(livePollUpdate, {
            args: [{ subscriber: this.subscriber, from: this.synced ? this.next : 0 }],
          }),
        );
        page = livePageSchema.parse(answer);
      } catch (err) {
        if (this.stop.signal.aborted) return;
        if (isDraining(err)) {
          await pause(100, this.stop.signal);
          continue;
        }
        // Temporal unreachable, a poll refused, a page this release cannot read: try again, the viewers wait.
        if (!(err instanceof WorkflowNotFoundError)) {
          await pause(retryMs, this.stop.signal);
          continue;
        }
        // No stream yet, one that started since the poll looked, or one that has completed.
        const found = await this.lookAfterNotFound().catch(() => 'absent' as const);
        if (found === 'running') {
          await pause(FIRST_LOOK_MS, this.stop.signal);
          continue;
        }
        if (found === 'absent') {
          // Not started yet: wait while the agent runs.
          if ((await this.agentRunning()) === false) return this.finish();
          // A thread's is started now: its next reply may be weeks away.
          if (this.kind === THREAD_KIND && (await this.startStream())) continue;
          await pause(lookMs, this.stop.signal);
          lookMs = Math.min(lookMs * 2, retryMs);
          continue;
        }
        // A stream that completed without its end (terminated) has ended all the same.
        page = { ...found, ended: true };
      }
      this.apply(page);
      if (page.items.length === 0 && !page.ended && !page.rollover) await this.endIfAgentEnded();
    }
  }

  /**
   * What became of a stream a poll did not find: `absent` (not started), `running` (it started
   * after the poll looked — a running stream answers the read query too, and must not be taken
   * for an ended one: poll it), or the final page of one that has closed.
   */
  private async lookAfterNotFound(): Promise<'absent' | 'running' | LivePage> {
    try {
      if ((await this.handle.describe()).status.name === 'RUNNING') return 'running';
      return livePageSchema.parse(await this.handle.query(liveReadQuery, { from: this.next }));
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'absent';
      throw err;
    }
  }

  /**
   * Starts the stream of a running thread on the thread's task queue (where the thread's calls
   * would start it); whether it runs now. A stream that has already ended is not started again.
   */
  private async startStream(): Promise<boolean> {
    try {
      await withWorkflowOfKind(this.options.client, this.agentId, this.kind, async (described) => {
        if (described.status.name !== 'RUNNING') return;
        await this.options.client.workflow.start<typeof agentStreamWorkflow>(LIVE_STREAM_WORKFLOW_TYPE, {
          workflowId: liveStreamId(this.agentId),
          taskQueue: described.taskQueue,
          args: [{ agentId: this.agentId }],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: 'USE_EXISTING',
          staticSummary: `live output of ${this.agentId}`,
        });
      });
      return true;
    } catch (err) {
      return err instanceof WorkflowExecutionAlreadyStartedError;
    }
  }

  /** Whether the agent still runs; undefined when that cannot be told now (Temporal unreachable). */
  private async agentRunning(): Promise<boolean | undefined> {
    try {
      return await withWorkflowOfKind(this.options.client, this.agentId, this.kind, (described) =>
        Promise.resolve(described.status.name === 'RUNNING'),
      );
    } catch (err) {
      return err instanceof ClientError && err.code === 'NOT_FOUND' ? false : undefined;
    }
  }

  /** A quiet stream whose agent has ended without saying so is told (a terminated agent). */
  private async endIfAgentEnded(): Promise<void> {
    if ((await this.agentRunning()) !== false) return;
    await this.handle.signal(liveEndSignal).catch(() => undefined);
  }

  /** Takes a page: new events to every viewer, the mirror cut to what the stream retains. */
  private apply(page: LivePage): void {
    const fresh = eventsOf(page).filter((e) => e.offset >= this.next || !this.synced);
    // The stream dropped items this feed never had (it was away too long): its viewers start over.
    const gap = this.synced && page.base > this.next;
    if (!this.synced || gap) {
      // The first page, or the stream dropped past what this feed had: start over from its base.
      this.mirror = [];
      this.base = page.base;
    }
    this.mirror.push(...fresh);
    this.next = Math.max(this.next, page.next);
    this.ended ||= page.ended;
    if (page.base > this.base) {
      this.mirror = this.mirror.filter((e) => e.offset >= page.base);
      this.base = page.base;
    }
    const firstSync = !this.synced;
    this.synced = true;
    for (const viewer of this.viewers) {
      if (gap && viewer.caughtUp) {
        viewer.listener.reset(page.base);
        viewer.lastSeen = undefined;
      }
      if (firstSync || !viewer.caughtUp) this.catchUp(viewer);
      else for (const event of fresh) this.deliver(viewer, event);
      if (this.ended) viewer.listener.end();
    }
    if (this.ended) this.viewers.clear();
  }

  /** Sends a viewer what it missed: from its `Last-Event-ID`, or a reset when that is gone. */
  private catchUp(viewer: Viewer): void {
    const after = viewer.lastSeen;
    const gone = after !== undefined && (after + 1 < this.base || after >= this.next);
    if (gone) {
      viewer.listener.reset(this.base);
      viewer.lastSeen = undefined;
    }
    viewer.caughtUp = true;
    for (const event of this.mirror) this.deliver(viewer, event);
    if (this.ended) {
      viewer.listener.end();
      this.viewers.delete(viewer);
    }
  }

  private deliver(viewer: Viewer, event: LiveEvent): void {
    if (viewer.lastSeen !== undefined && event.offset <= viewer.lastSeen) return;
    viewer.lastSeen = event.offset;
    viewer.listener.event(event);
  }

  /** The agent ended with no stream at all: every viewer is told. */
  private finish(): void {
    this.ended = true;
    for (const viewer of this.viewers) viewer.listener.end();
    this.viewers.clear();
  }
}

function isDraining(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === LIVE_DRAINING
  );
}

/** Waits `ms` unless `signal` aborts first. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}
