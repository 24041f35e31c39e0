/**
 * Regular expressions inside JSON Schemas: `pattern`, `patternProperties` and `format: "regex"`.
 * Such a schema, turned into zod, runs an author's (or an MCP server's) regular expression on
 * model output; one that backtracks badly pins the thread that runs it for seconds, and in
 * workflow code that thread is shared by every agent of the worker. So no schema that workflow
 * code checks carries them: graphs refuse them, the tool registry strips them from the schema
 * the workflow validates with, and workflow code strips any that still arrive. Pure.
 */

/** The keywords that make a JSON Schema run a regular expression. */
export const REGEX_KEYWORDS = ['pattern', 'patternProperties', 'format: "regex"'] as const;

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data (or a name list), never a subschema: nothing below them runs. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required', 'description', 'title', '$comment']);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Expressions a caller knows to be safe: `pattern` strings listed here are kept, not reported. */
type Kept = readonly string[];

/** Whether `key: value`, in a schema object, makes it run a regular expression not in `keep`. */
function isRegexKeyword(key: string, value: unknown, keep: Kept): boolean {
  return (
    (key === 'pattern' && typeof value === 'string' && !keep.includes(value)) ||
    key === 'patternProperties' ||
    (key === 'format' && value === 'regex')
  );
}

/** A path segment, dotted when it is a plain name and bracketed otherwise. */
function join(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/** The subschemas below `value` (one schema, or an array of them), with their paths. */
function subschemas(value: unknown, path: string): [unknown, string][] {
  if (Array.isArray(value)) return value.map((item, i): [unknown, string] => [item, join(path, i)]);
  return [[value, path]];
}

/**
 * Where `schema` runs a regular expression: the path of each keyword (`properties.code.pattern`),
 * `base` first. Property names that merely read "pattern" are not keywords and are not listed,
 * nor is a `pattern` whose string is in `keep`.
 */
export function regexKeywordPaths(schema: unknown, base = '', keep: Kept = []): string[] {
  if (!isObject(schema)) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    const path = join(base, key);
    if (isRegexKeyword(key, value, keep)) found.push(path);
    if (DATA_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) found.push(...regexKeywordPaths(sub, join(path, name), keep));
    } else {
      for (const [sub, at] of subschemas(value, path)) found.push(...regexKeywordPaths(sub, at, keep));
    }
  }
  return found;
}

/** Keywords that judge the properties `patternProperties` did not match: without it, they would judge those too. */
const LEFTOVER_PROPERTIES = ['additionalProperties', 'unevaluatedProperties'];

/**
 * `schema` without any regular expression but those in `keep` (a copy; `schema` itself is left
 * as it is). Dropping never makes the schema stricter: where `patternProperties` goes, so do its
 * neighbours `additionalProperties` and `unevaluatedProperties`.
 */
export function withoutRegexKeywords(schema: Json, keep: Kept = []): Json {
  const strip = (value: unknown, inMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => strip(item, false));
    if (!isObject(value)) return value;
    const copy: Json = {};
    const patternProperties = !inMap && 'patternProperties' in value;
    for (const [key, sub] of Object.entries(value)) {
      if (!inMap && isRegexKeyword(key, sub, keep)) continue;
      if (patternProperties && LEFTOVER_PROPERTIES.includes(key)) continue;
      if (inMap || DATA_KEYWORDS.has(key)) copy[key] = inMap ? strip(sub, false) : sub;
      else copy[key] = strip(sub, SCHEMA_MAPS.has(key));
    }
    return copy;
  };
  return strip(schema, false) as Json;
}
