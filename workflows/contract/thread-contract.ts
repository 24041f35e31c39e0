/**
 * What programs rely on about a thread (docs/contracts.md#threads), defined once: the workflow
 * type, its input, the `send` update with its body and its answer, the `thread` query with its
 * view, and the workflow ids of threads and their turns. Each payload's type is its schema's
 * `z.infer`; the `steer` signal a thread sends its running turn's agent, and the `steerClosed`
 * signal that agent sends back once no step will start (`steerReturned` for a steered message
 * that came too late). The messages are
 * defined here, their payloads' schemas in thread-schemas.ts (shared by all workflows, see
 * workflows/shared-modules.ts).
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  SendInput,
  SendResult,
  SteerClosed,
  SteerMessage,
  SteerReturned,
  ThreadPage,
  ThreadView,
  Turn,
} from './thread-schemas';

export * from './thread-schemas';

/** Send a message: recorded with its sender and routed; answers what became of it. */
export const sendUpdate = defineUpdate<SendResult, [SendInput]>('send');
/** The thread and a page of its turns (the newest DEFAULT_VIEW_TURNS without one), texts cut. */
export const threadQuery = defineQuery<ThreadView, [ThreadPage?]>('thread');
/** One kept message's turn whole (its text uncut), by message id; null for none (never sent, or folded away). */
export const messageQuery = defineQuery<Turn | null, [string]>('message');
/** The `messageId` a `send` update (by its id) recorded in this run, else null: known before the reply. */
export const messageOfUpdateQuery = defineQuery<string | null, [string]>('messageOfUpdate');

/**
 * Thread → its running turn's agent (and agent → its running steps): a message for the steps'
 * next model call. A payload that does not parse is dropped.
 */
export const steerSignal = defineSignal<[SteerMessage]>('steer');

/**
 * A turn's agent → its thread, once the agent summarises: no step will start, so a message the
 * thread would steer into it is queued as the next turn instead. A payload that does not parse is dropped.
 */
export const steerClosedSignal = defineSignal<[SteerClosed]>('steerClosed');

/**
 * A turn's agent → its thread: a message the thread steered into it (by `messageId`) that came
 * once no step would start; the thread queues it as a next turn. A payload that does not parse is dropped.
 */
export const steerReturnedSignal = defineSignal<[SteerReturned]>('steerReturned');
