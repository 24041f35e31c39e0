/**
 * A message for a running model's next call, from someone who watches the work: the agent
 * passes it to its running steps (or holds it for the steps that start next), and each step's
 * round report names the messages its model heard (`heard`, contract/messages.ts, which defines
 * the signal carrying it). Schema and type only, shared by all workflows (workflows/shared-modules.ts).
 */
import { z } from 'zod';

/** A message for the running model: the text its next call hears, who wrote it, and its id when it has one. */
export const incomingMessageSchema = z.object({
  text: z.string().min(1).max(20_000),
  by: z.string().max(200).optional(),
  /** The message's id where it was written (a thread's `msg-<n>`): reports of the rounds that heard it name it. */
  messageId: z.string().min(1).max(200).optional(),
});
/** A message for the running model. */
export type IncomingMessage = z.infer<typeof incomingMessageSchema>;
