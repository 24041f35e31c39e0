/**
 * The offline demo model's instances of JSON Schemas: each is valid for the schema it was made
 * from (checked as Cairn checks a node's output), the same every time, and the demo's choices
 * (booleans, free text) are what it asked for.
 */
import { outputChecker } from '../../workflows/model/tools/finish-step';
import { schemaInstance, type JsonSchema } from '../../llm-servers/demo-model/schema-instance';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routeJsonSchema } from '../../workflows/model/graph/route-reply';
import { messageRouteJsonSchema } from '../../workflows/model/thread/message-route';
import { verifyJsonSchema } from '../../workflows/model/step/verify-reply';
import { assessJsonSchema } from '../../workflows/model/plan/assess-reply';

const choices = { yes: true, text: 'demo text' };

const schemas: [string, JsonSchema][] = [
  ['the review verdict', reviewLoopGraph.nodes.find((n) => n.id === 'review')?.output ?? {}],
  ['the graph router reply', routeJsonSchema()],
  ['the thread router reply', messageRouteJsonSchema()],
  ['the verify reply', verifyJsonSchema()],
  ['the assess reply', assessJsonSchema()],
  [
    'bounded strings, numbers and arrays',
    {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 12, maxLength: 14 },
        short: { type: 'string', maxLength: 3 },
        when: { type: 'string', format: 'date-time' },
        score: { type: 'integer', minimum: 3, maximum: 5 },
        ratio: { type: 'number', exclusiveMinimum: 1, maximum: 2 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4 },
        none: { type: 'null' },
        slug: { type: 'string', pattern: '^[a-z]+-[0-9]$' },
      },
      required: ['code', 'short', 'when', 'score', 'ratio', 'tags', 'none', 'slug'],
      additionalProperties: false,
    },
  ],
  [
    'enums, consts, unions, allOf and local refs',
    {
      type: 'object',
      $defs: { level: { type: 'string', enum: ['low', 'high'] } },
      properties: {
        level: { $ref: '#/$defs/level' },
        kind: { const: 'fixed' },
        either: { anyOf: [{ type: 'integer', minimum: 7 }, { type: 'string' }] },
        maybe: { type: ['string', 'null'] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] },
            { properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
      },
      required: ['level', 'kind', 'either', 'maybe', 'both'],
    },
  ],
];

test.each(schemas)('an instance of %s is valid for it, and the same every time', (_name, schema) => {
  const instance = schemaInstance(schema, choices);
  expect(outputChecker(schema).safeParse(instance)).toMatchObject({ success: true });
  expect(schemaInstance(schema, choices)).toEqual(instance);
});

test('booleans say what the demo chose, free strings carry its text, enums and consts their first value', () => {
  const verdict = reviewLoopGraph.nodes.find((n) => n.id === 'review')?.output ?? {};
  expect(schemaInstance(verdict, { yes: false, text: 'not yet' })).toEqual({ approved: false, feedback: 'not yet' });
  expect(schemaInstance(verdict, { yes: true, text: 'fine' })).toEqual({ approved: true, feedback: 'fine' });
  const [, mixed] = schemas[6] ?? [];
  expect(schemaInstance(mixed ?? {}, choices)).toMatchObject({ level: 'low', kind: 'fixed', either: 7 });
});

test('values within their bounds: lengths cut and padded, numbers inside their range, arrays at their minimum, patterns matched', () => {
  const [, bounded] = schemas[5] ?? [];
  expect(schemaInstance(bounded ?? {}, choices)).toEqual({
    code: 'demo text...',
    short: 'dem',
    when: '2025-01-01T00:00:00Z',
    score: 3,
    ratio: 1.5,
    tags: ['demo text', 'demo text'],
    none: null,
    slug: 'demo-1',
  });
});

test('a recursive schema ends: past a depth only required properties are made', () => {
  const tree: JsonSchema = {
    $ref: '#/$defs/node',
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } },
        required: ['name'],
      },
    },
  };
  const instance = schemaInstance(tree, choices);
  expect(outputChecker(tree).safeParse(instance)).toMatchObject({ success: true });
  expect(JSON.stringify(instance).match(/child/g)?.length).toBe(4);
});
