/**
 * The zod schema of the `answer` signal's and update's payload, in a module of its own: the
 * workflows parse every answer with it (message-payloads.ts) and should not build the whole
 * interaction schema for that; the HTTP API's answer body is this schema too. Pure zod.
 */
import { z } from 'zod';

/** Longest interaction id and `by` an answer may carry. */
const MAX_ID = 200;

/**
 * How an answer reached the agent: through Cairn's HTTP API from the web page, a script or the
 * CLI (after authentication), or straight to Temporal (its UI, CLI or SDK), which Cairn does not
 * authenticate.
 */
export const ANSWER_METHODS = ['web', 'api', 'cli', 'temporal-signal'] as const;

/**
 * What authenticated the request Cairn's HTTP API acted on: a token of the tokens file, the
 * shared CAIRN_API_TOKEN, the page's OpenID Connect session, the provider's JWT as a bearer
 * token, or nothing (authentication off). Set by the server, never by a client.
 */
export const AUTHENTICATED_BY = ['token', 'shared-token', 'oidc-session', 'oidc-bearer', 'none'] as const;

/** The sign-ins that name one person: a tokens-file principal, the provider's subject (not the shared token, not auth off). */
export const PERSONAL_SIGN_INS = ['token', 'oidc-session', 'oidc-bearer'] as const;

/** A personal sign-in's realm, where its ids come from: the tokens file, or the provider (session and bearer alike). */
export function signInRealm(by: (typeof PERSONAL_SIGN_INS)[number]): 'token' | 'oidc' {
  return by === 'token' ? 'token' : 'oidc';
}

/** Who answered, as the audit record keeps it. */
export const actorSchema = z.object({
  id: z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`),
  name: z.string().max(MAX_ID, `must be at most ${MAX_ID} characters`).optional(),
  roles: z.array(z.string().max(MAX_ID)).max(20),
  method: z.enum(ANSWER_METHODS),
  /** Absent on records of servers before it, and on answers straight to Temporal. */
  authenticatedBy: z.enum(AUTHENTICATED_BY).optional(),
});

/** Payload of the `answer` signal and update; the answer itself is checked against its interaction. */
export const answerInputSchema = z.object({
  interactionId: z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`),
  answer: z.unknown(),
  /** Who answers, for the audit record. */
  by: z.string().max(MAX_ID, `must be at most ${MAX_ID} characters`).optional(),
  /**
   * The authenticated principal, set by Cairn's HTTP API (never taken from a request body). An
   * answer without one came straight to Temporal and is recorded as `temporal-signal`.
   */
  actor: actorSchema.optional(),
});
