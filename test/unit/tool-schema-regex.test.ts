/**
 * Tool schemas with regular expressions (activities/tools/tool-schema-regex.ts): the catalogue
 * workflow code validates with carries none, the model's spec keeps them, the tool still
 * enforces them when it runs, and the worker names each such tool in one start-up line.
 */
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { createToolRegistry } from '../../activities/tools/tool-registry';
import { regexToolNotes, workflowParameters } from '../../activities/tools/tool-schema-regex';

/** A user tool whose zod input becomes a `pattern`. */
const zodTool = defineTool({
  name: 'lookup',
  description: 'Look a code up.',
  effect: 'read',
  input: z.object({ code: z.string().regex(/^(a+)+$/) }),
  run: ({ code }) => Promise.resolve(code),
});

/** An MCP-like tool: a hand-written schema, a permissive input (the server validates). */
const mcpLike = defineTool({
  name: 'srv__find',
  description: 'Find.',
  effect: 'read',
  input: z.looseObject({}),
  parameters: { type: 'object', patternProperties: { '^x-': { type: 'string', format: 'regex' } } },
  run: () => Promise.resolve('ok'),
});

const plain = defineTool({
  name: 'plain',
  description: 'Plain.',
  effect: 'read',
  input: z.object({ pattern: z.string() }),
  run: () => Promise.resolve('ok'),
});

test("the workflow's catalogue has no regular expression; the model's spec keeps it", () => {
  const registry = createToolRegistry([zodTool, mcpLike, plain]);
  const listed = Object.fromEntries(registry.list().map((t) => [t.name, t.parameters]));
  expect(JSON.stringify(listed['lookup'])).not.toContain('pattern');
  expect(listed['lookup']).toMatchObject({ properties: { code: { type: 'string' } } });
  expect(listed['srv__find']).toEqual({ type: 'object' });
  // A property merely named "pattern" is left as it is.
  expect(listed['plain']).toEqual(z.toJSONSchema(plain.input));
  expect(JSON.stringify(registry.spec('lookup')?.parameters)).toContain('"pattern":"^(a+)+$"');
  expect(registry.spec('srv__find')?.parameters).toBe(mcpLike.parameters);
});

test("a built-in tool's schema reaches workflow code whole: its expressions are Cairn's own", () => {
  const registry = createToolRegistry([zodTool, plain], undefined, ['lookup']);
  expect(registry.list().find((t) => t.name === 'lookup')?.parameters).toEqual(z.toJSONSchema(zodTool.input));
});

test('the tool still enforces its own pattern when it runs', async () => {
  const registry = createToolRegistry([zodTool]);
  const context = { workspace: '.', ledgerDir: '.', idempotencyKey: 'k', signal: new AbortController().signal };
  expect(await registry.run('lookup', '{"code":"b"}', context)).toMatchObject({ ok: false });
  expect(await registry.run('lookup', '{"code":"aa"}', context)).toEqual({ ok: true, output: 'aa' });
});

test('a schema without regular expressions is passed through as it is', () => {
  const schema = { type: 'object', properties: { pattern: { type: 'string' } } };
  expect(workflowParameters(schema)).toBe(schema);
});

test('one start-up line per tool with regular expressions, naming where they are', () => {
  expect(regexToolNotes([zodTool, mcpLike, plain])).toEqual([
    'tool "lookup": its parameters use regular expressions (properties.code.pattern); ' +
      'workflow code checks its calls without them, and only the tool itself enforces them when it runs',
    'tool "srv__find": its parameters use regular expressions (patternProperties, patternProperties["^x-"].format); ' +
      'workflow code checks its calls without them, and only the tool itself enforces them when it runs',
  ]);
});

test('a tool whose input has no JSON Schema form gets no line and stops nothing at start (its listing reports it)', () => {
  const undescribable = { ...plain, name: 'remind_at', input: z.object({ at: z.date() }) } as typeof plain;
  expect(() => z.toJSONSchema(undescribable.input)).toThrow();
  expect(regexToolNotes([undescribable, zodTool]).map((line) => line.split(':')[0])).toEqual(['tool "lookup"']);
});
