/**
 * What programs rely on about a thread (docs/contracts.md#threads), defined once: the workflow
 * type, its input, the `send` update with its body and its answer, the `thread` query with its
 * view, and the workflow ids of threads and their turns. Each payload's type is its schema's
 * `z.infer`. Steering runs one way: the thread sends its running turn's agent the `steer`
 * signal, and the turn's result names the messages its steps' models heard (`heard`); the
 * thread queues the rest as its next turn. The messages are defined here, their payloads'
 * schemas in thread-schemas.ts (shared by all workflows, see workflows/shared-modules.ts).
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { IncomingMessage } from '../model/incoming-messages';
import { incomingMessageSignal } from './messages';
import type { SendInput, SendResult, ThreadPage, ThreadView, Turn } from '../model/thread/thread-schemas';

export * from '../model/thread/thread-schemas';
export { incomingMessageSchema as steerMessageSchema } from '../model/incoming-messages';

/** A message steered into a running turn: the text its running steps hear at their next model call. */
export type SteerMessage = IncomingMessage;

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
 * next model call, named by the thread's message id. The same signal as incomingMessageSignal
 * (contract/messages.ts), under the thread's word for it. A payload that does not parse is dropped.
 */
export const steerSignal = incomingMessageSignal;
