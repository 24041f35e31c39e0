/**
 * `ask.form`: several typed fields at once (an `ask_user` call of kind `form`). The answer is
 * `{ values: { <key>: <value> } }` with every field rule met (validate-form.ts); a missing
 * optional field takes its default. Expired under `default`, it is answered with the defaults. Pure.
 */
import { z } from 'zod';
import { formFieldSchema } from '../ask-request-schema';
import { validateFormValues } from '../validate-form';
import { NO_ANSWER, STEERING_ROLES, accept, expected, invalid } from './answer-rules';
import type { AskRequestOf } from '../ask-request-schema';
import { defineKind } from './kind-module';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const askForm = defineKind({
  kind: 'ask.form',
  spec: z.object({ kind: z.literal('ask.form'), prompt: z.string(), fields: z.array(formFieldSchema) }),
  answer: z.object({ values: z.record(z.string(), z.unknown()) }),
  incoming: {
    // Kept as given (not rebuilt by a record schema): the form rules read the keys themselves.
    schema: z.object({ values: z.custom<Record<string, unknown>>(isRecord, expected('an object keyed by field key')) }),
    shape: '{ values: { <key>: <value> } }',
    key: 'values',
  },
  answerRoles: { family: 'ask', roles: z.enum(STEERING_ROLES) },
  askUser: {
    kind: 'form',
    toSpec: (request: AskRequestOf<'form'>) => ({
      kind: 'ask.form' as const,
      prompt: request.prompt,
      fields: request.fields.map((field) => ({ ...field })),
    }),
  },
  expire: (spec, policy) => {
    if (policy !== 'default') return NO_ANSWER;
    const defaults = spec.fields.flatMap((f) => (f.default === undefined ? [] : [[f.key, f.default] as const]));
    return { values: Object.fromEntries(defaults) };
  },
  check: (spec, { values }) => {
    const checked = validateFormValues(spec.fields, values);
    return checked.ok ? accept({ values: checked.values }) : invalid(checked.field, checked.errors.join('; '));
  },
});
