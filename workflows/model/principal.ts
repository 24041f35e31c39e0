/**
 * Who started an agent, as Cairn's HTTP API signed them in: the principal approval policies
 * judge tool calls for. It travels in the agent's input, each step's input and the policy
 * activity's input. Pure zod, neutral ground for `agent/` and `step/`.
 */
import { z } from 'zod';
import { AUTHENTICATED_BY } from './interactions/answer-input-schema';

/** Who started the agent: their id and roles, and how they signed in (absent before it was kept). */
export const principalSchema = z.object({
  id: z.string().min(1).max(200),
  roles: z.array(z.string().max(200)).max(20),
  authenticatedBy: z.enum(AUTHENTICATED_BY).optional(),
});

/** Who started the agent: their id and roles, and how they signed in (absent before it was kept). */
export type Principal = z.infer<typeof principalSchema>;

/** The principal of someone Cairn's HTTP API signed in (an actor, the request's principal). */
export function principalOf(who: {
  id: string;
  roles: readonly string[];
  authenticatedBy?: Principal['authenticatedBy'];
}): Principal {
  return {
    id: who.id,
    roles: [...who.roles],
    ...(who.authenticatedBy ? { authenticatedBy: who.authenticatedBy } : {}),
  };
}
