/**
 * The kind modules (workflows/model/interactions/kinds/) are consistent with what the registry derives
 * from them: each names its own kind, its answer key is a key of both its incoming and its stored
 * answer, and the kinds that share an `answerRoles` family allow the same roles (the family's
 * schema takes one list). The derived tables have one entry per kind, in the registry's order.
 */
import type { z } from 'zod';
import {
  INTERACTION_KINDS,
  KIND_KEYS,
  KIND_MODULES,
  SHAPES,
  answerRolesSchema,
  answerSchemas,
  interactionSpecSchema,
} from '../../workflows/model/interactions/kinds/registry';
import { interactionSchema } from '../../workflows/model/interactions/interaction-schema';
import { ASK_KINDS } from '../../workflows/model/interactions/ask-request-schema';

const objectKeys = (schema: z.ZodType): string[] =>
  'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null ? Object.keys(schema.shape) : [];

test.each(KIND_MODULES.map((module) => [module.kind, module] as const))('%s names its own kind', (kind, module) => {
  expect(module.spec.shape.kind.value).toBe(kind);
  expect(objectKeys(module.incoming.schema)).toContain(module.incoming.key);
  expect(objectKeys(module.answer)).toContain(module.incoming.key);
});

test('the kinds of one answerRoles family allow the same roles', () => {
  const byFamily = new Map<string, string[][]>();
  for (const { answerRoles } of KIND_MODULES) {
    byFamily.set(answerRoles.family, [...(byFamily.get(answerRoles.family) ?? []), [...answerRoles.roles.options]]);
  }
  for (const lists of byFamily.values()) expect(new Set(lists.map((l) => l.join(','))).size).toBe(1);
  expect(Object.keys(answerRolesSchema.shape)).toEqual([...byFamily.keys()]);
});

test('every derived table has each kind once, in the registry order', () => {
  const kinds = KIND_MODULES.map((module) => module.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
  expect([...INTERACTION_KINDS]).toEqual(kinds);
  expect(Object.keys(answerSchemas)).toEqual(kinds);
  expect(Object.keys(SHAPES)).toEqual(kinds);
  expect(Object.keys(KIND_KEYS)).toEqual(kinds);
  expect(interactionSpecSchema.options.map((o) => o.shape.kind.value)).toEqual(kinds);
  expect(interactionSchema.options.map((o) => o.shape.kind.value)).toEqual(kinds);
});

test('each ask_user kind opens exactly one question kind', () => {
  const opened = KIND_MODULES.flatMap((module) => (module.askUser ? [module.askUser.kind] : []));
  expect([...opened].sort()).toEqual([...ASK_KINDS].sort());
});
