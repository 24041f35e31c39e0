/**
 * Who started an agent, as Cairn's HTTP API signed them in: the principal approval policies
 * judge tool calls for. It travels in the agent's input, each step's input and the policy
 * activity's input. Pure zod, neutral ground for `agent/` and `step/`.
 */
import { z } from 'zod';

/** Who started the agent: their id and roles. */
export const principalSchema = z.object({
  id: z.string().min(1).max(200),
  roles: z.array(z.string().max(200)).max(20),
});

/** Who started the agent: their id and roles. */
export type Principal = z.infer<typeof principalSchema>;
