/**
 * The payloads of steering between a thread and its running turn's agent (thread-contract.ts
 * defines the signals): the message steered in, the agent saying it starts no more steps, and
 * the agent handing back a message that came too late. Schemas and their types only, shared by
 * all workflows (workflows/shared-modules.ts).
 */
import { z } from 'zod';

/** A message steered into a running turn: the text its running steps hear at their next model call. */
export const steerMessageSchema = z.object({
  text: z.string().min(1).max(20_000),
  by: z.string().max(200).optional(),
  /** The thread's message, when a thread steers it: an agent that can no longer deliver it hands it back (`steerReturned`). */
  messageId: z.string().min(1).max(200).optional(),
});
/** A message steered into a running turn. */
export type SteerMessage = z.infer<typeof steerMessageSchema>;

/** A turn's agent telling its thread it will start no more steps (it summarises): a steer would reach none. */
export const steerClosedSchema = z.object({ agentId: z.string().min(1).max(400) });
/** A turn's agent telling its thread it will start no more steps. */
export type SteerClosed = z.infer<typeof steerClosedSchema>;

/**
 * A turn's agent handing its thread back a message the thread steered into it once no step would
 * start (it summarises or has ended): the thread queues that message as a next turn.
 */
export const steerReturnedSchema = z.object({
  agentId: z.string().min(1).max(400),
  messageId: z.string().min(1).max(200),
});
/** A turn's agent handing its thread back a steered message it could not deliver. */
export type SteerReturned = z.infer<typeof steerReturnedSchema>;
