/**
 * No user-supplied regular expression runs in workflow code: where a JSON Schema runs one
 * (schema-regex.ts), the copy without them, and a node output check that neither runs a
 * schema's pattern nor walks a string past OUTPUT_STRING_MAX characters (finish-step.ts).
 */
import { OUTPUT_STRING_MAX, outputChecker, parseFinishStepArgs } from '../../workflows/model/tools/finish-step';
import { regexKeywordPaths, withoutRegexKeywords } from '../../workflows/model/tools/schema-regex';

/** Backtracks exponentially on `aaa…ab`: ~2^n steps, seconds at n = 30. */
const EVIL = '^(a+)+$';

const nested = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'a property named "pattern" is no keyword' },
    code: { type: 'string', pattern: EVIL },
    list: { type: 'array', items: [{ type: 'string', format: 'regex' }] },
    map: { type: 'object', patternProperties: { [EVIL]: { type: 'string' } } },
    either: { anyOf: [{ type: 'string', pattern: EVIL }, { type: 'number' }] },
    named: { $ref: '#/$defs/Named' },
  },
  $defs: { Named: { type: 'string', pattern: EVIL } },
  examples: [{ pattern: EVIL }],
  default: { pattern: 'data, not a keyword' },
};

test('finds every regular expression anywhere nested, by path, and no property that is merely named so', () => {
  expect(regexKeywordPaths(nested)).toEqual([
    'properties.code.pattern',
    'properties.list.items[0].format',
    'properties.map.patternProperties',
    'properties.either.anyOf[0].pattern',
    '$defs.Named.pattern',
  ]);
  expect(regexKeywordPaths({ type: 'string', format: 'email', enum: ['pattern'] })).toEqual([]);
});

test('the copy without them keeps everything else and leaves the schema as it was', () => {
  const before = JSON.stringify(nested);
  const stripped = withoutRegexKeywords(nested);
  expect(JSON.stringify(nested)).toBe(before);
  expect(regexKeywordPaths(stripped)).toEqual([]);
  expect(stripped).toEqual({
    ...nested,
    properties: {
      ...nested.properties,
      code: { type: 'string' },
      list: { type: 'array', items: [{ type: 'string' }] },
      map: { type: 'object' },
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    },
    $defs: { Named: { type: 'string' } },
  });
});

test("a node output check never runs the schema's pattern, whatever reaches it", () => {
  // A pattern the value breaks: the check passing proves the pattern never ran (an evil one
  // would have pinned the thread instead).
  const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } } };
  expect(outputChecker(schema).safeParse({ code: 'abc' }).success).toBe(true);
  expect(outputChecker(schema).safeParse({ code: 7 }).success).toBe(false); // the rest still holds
  const args = JSON.stringify({ result: 'done', output: { code: 'abc' } });
  expect(parseFinishStepArgs(args, schema)).toEqual({ ok: true, result: 'done', output: { code: 'abc' } });
});

test(`a node output string is capped at ${OUTPUT_STRING_MAX} characters, wherever it sits`, () => {
  expect(OUTPUT_STRING_MAX).toBe(10_000);
  const schema = { type: 'object', properties: { notes: { type: 'array', items: { type: 'string' } } } };
  const at = (text: string) => JSON.stringify({ result: 'done', output: { notes: ['short', text] } });
  expect(parseFinishStepArgs(at('x'.repeat(OUTPUT_STRING_MAX)), schema).ok).toBe(true);
  expect(parseFinishStepArgs(at('x'.repeat(OUTPUT_STRING_MAX + 1)), schema)).toEqual({
    ok: false,
    error: `output.notes[1]: longer than ${OUTPUT_STRING_MAX} characters`,
  });
  // A schema that allows anything is capped too, and so is a key.
  const anyKey = JSON.stringify({ result: 'done', output: { ['k'.repeat(OUTPUT_STRING_MAX + 1)]: 1 } });
  expect(parseFinishStepArgs(anyKey, {})).toEqual({
    ok: false,
    error: `output (a key): longer than ${OUTPUT_STRING_MAX} characters`,
  });
});
