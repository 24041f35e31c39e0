/**
 * `ask.select`: a choice among `options`, one or (with `multiple`) several (an `ask_user` call of
 * kind `select`). The answer is `{ values }`: offered options only, no repeats, exactly one — or
 * with `multiple`, at least one. Pure.
 */
import { z } from 'zod';
import { firstDuplicate } from '../validate-form';
import { NO_ANSWER, STEERING_ROLES, accept, expected, invalid, quote } from './answer-rules';
import type { AskRequestOf } from '../ask-request-schema';
import { defineKind } from './kind-module';

export const askSelect = defineKind({
  kind: 'ask.select',
  spec: z.object({
    kind: z.literal('ask.select'),
    prompt: z.string(),
    options: z.array(z.string()),
    multiple: z.boolean(),
  }),
  answer: z.object({ values: z.array(z.string()) }),
  incoming: {
    schema: z.object({ values: z.array(z.string(expected('a string')), expected('a list of option values')) }),
    shape: '{ values: [..] }',
    key: 'values',
  },
  answerRoles: { family: 'ask', roles: z.enum(STEERING_ROLES) },
  askUser: {
    kind: 'select',
    toSpec: (request: AskRequestOf<'select'>) => ({
      kind: 'ask.select' as const,
      prompt: request.prompt,
      options: [...request.options],
      multiple: request.multiple,
    }),
  },
  expire: () => NO_ANSWER,
  check: (spec, { values }) => {
    const stray = values.find((value) => !spec.options.includes(value));
    if (stray !== undefined) return invalid('values', `values: ${quote(stray)} is not one of the options`);
    const twice = firstDuplicate(values);
    if (twice !== undefined) return invalid('values', `values: ${quote(twice)} is chosen twice`);
    if (!spec.multiple && values.length !== 1) return invalid('values', 'values: choose exactly one option');
    if (spec.multiple && values.length === 0) return invalid('values', 'values: choose at least one option');
    return accept({ values });
  },
});
