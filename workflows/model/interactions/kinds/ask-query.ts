/**
 * `ask.query`: a free-text question (an `ask_user` call of kind `query`, the agent's or a step's).
 * The answer is `{ text }`, trimmed, not empty, at most 4000 characters. Pure.
 */
import { z } from 'zod';
import { MAX_TEXT, NO_ANSWER, STEERING_ROLES, accept, expected } from './answer-rules';
import type { AskRequestOf } from '../ask-request-schema';
import { defineKind } from './kind-module';

export const askQuery = defineKind({
  kind: 'ask.query',
  spec: z.object({ kind: z.literal('ask.query'), prompt: z.string() }),
  answer: z.object({ text: z.string() }),
  incoming: {
    schema: z.object({
      text: z
        .string(expected('a string'))
        .trim()
        .min(1, 'must not be empty')
        .max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
    }),
    shape: '{ text }',
    key: 'text',
  },
  answerRoles: { family: 'ask', roles: z.enum(STEERING_ROLES) },
  askUser: {
    kind: 'query',
    toSpec: (request: AskRequestOf<'query'>) => ({ kind: 'ask.query' as const, prompt: request.prompt }),
  },
  expire: () => NO_ANSWER,
  check: (_spec, { text }) => accept({ text }),
});
