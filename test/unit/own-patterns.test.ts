/**
 * Workflow code runs only Cairn's own regular expressions when it checks a call's arguments
 * (workflows/model/tools/own-patterns.ts, validate-arguments.ts): every expression in a built-in
 * tool's schema is listed there, any other is dropped (`pattern`, `patternProperties`,
 * `format: "regex"`), and the listed ones still refuse what they refuse.
 */
import { z } from 'zod';
import { builtinTools } from '../../activities/create-activities';
import { OWN_PATTERNS } from '../../workflows/model/tools/own-patterns';
import { regexKeywordPaths } from '../../workflows/model/tools/schema-regex';
import { validateArguments } from '../../workflows/step/validate-arguments';

const schemaOf = (name: string): Record<string, unknown> => {
  const tool = builtinTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no built-in ${name}`);
  return tool.parameters ?? z.toJSONSchema(tool.input);
};

test("every regular expression of a built-in tool's schema is one of Cairn's own", () => {
  const found = builtinTools().flatMap((t) => regexKeywordPaths(schemaOf(t.name)).map((p) => `${t.name}: ${p}`));
  expect(found).toEqual([
    'http_fetch: properties.headers.propertyNames.pattern',
    'http_fetch: properties.headers.additionalProperties.pattern',
  ]);
  const foreign = builtinTools().flatMap((t) => regexKeywordPaths(schemaOf(t.name), '', OWN_PATTERNS));
  expect(foreign).toEqual([]);
});

test("Cairn's own expressions still refuse: a header value with a line break, a header name with a colon", () => {
  const fetch = schemaOf('http_fetch');
  const url = 'http://example.com/';
  expect(validateArguments('http_fetch', fetch, JSON.stringify({ url, headers: { a: 'b\r\nX: y' } })).ok).toBe(false);
  expect(validateArguments('http_fetch', fetch, JSON.stringify({ url, headers: { 'a:b': 'c' } })).ok).toBe(false);
  expect(validateArguments('http_fetch', fetch, JSON.stringify({ url, headers: { accept: 'text/plain' } })).ok).toBe(
    true,
  );
});

test('any other expression is dropped, not run: pattern, patternProperties and format "regex", at any depth', () => {
  const schemas: Record<string, unknown>[] = [
    { type: 'object', properties: { path: { type: 'string', pattern: '^x$' } } },
    // Its neighbour additionalProperties goes with it: dropping never makes a schema stricter.
    { type: 'object', patternProperties: { '^x$': { type: 'number' } }, additionalProperties: false },
    // A built-in's name and an own expression beside a foreign one: only the foreign one goes.
    {
      type: 'object',
      properties: {
        headers: { type: 'object', additionalProperties: { type: 'string', pattern: OWN_PATTERNS[1] } },
        deep: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^x$' }] } },
      },
    },
  ];
  const args = [{ path: 'y' }, { x: 'not a number' }, { deep: ['y'] }];
  for (const [i, schema] of schemas.entries()) {
    const raw = JSON.stringify(args[i]);
    expect(validateArguments('list_files', schema, raw, 'all').ok).toBe(false); // what runs recorded before did
    expect(validateArguments('list_files', schema, raw)).toEqual({ ok: true, value: args[i] });
  }
  const kept = schemas[2] as Record<string, unknown>;
  const broken = JSON.stringify({ headers: { a: 'b\nc' } });
  expect(validateArguments('http_fetch', kept, broken).ok).toBe(false);
  // zod compiles no format "regex" (it ignores the format), and it is dropped all the same.
  const regexFormat = { type: 'object', properties: { re: { type: 'string', format: 'regex' } } };
  expect(regexKeywordPaths(regexFormat)).toEqual(['properties.re.format']);
  expect(validateArguments('list_files', regexFormat, '{"re":"("}').ok).toBe(true);
});
