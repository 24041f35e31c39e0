/**
 * A small valid instance of a JSON Schema, made deterministically: how the offline demo model
 * fills a graph node's structured output and any reply a request asks for by `json_schema`. It
 * covers what outputs use — objects (every declared property; the required ones past a depth),
 * arrays (one item, or as many as `minItems` asks), strings (cut and padded to their lengths,
 * a few common formats, a plain text that matches their `pattern` when one of a few does), numbers within their bounds, booleans, null, `enum` and `const` (the
 * first value), `anyOf` / `oneOf` (the first branch), `allOf` (merged) and local `$ref`s.
 * Pure: the same schema and choices give the same instance.
 */

/** A JSON Schema as received: any object. */
export type JsonSchema = Record<string, unknown>;

/** The choices the demo makes where a schema leaves them open. */
export interface InstanceChoices {
  /** Every boolean's value. */
  yes: boolean;
  /** Every free string's text (cut or padded to the schema's lengths). */
  text: string;
}

/** Nesting past which only required properties are filled (recursive schemas end). */
const FULL_DEPTH = 4;
/** Nesting past which nothing more is made: a schema that needs deeper values is not one an output uses. */
const MAX_DEPTH = 12;

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'demo@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** Texts tried, in order, for a string whose pattern the demo's text does not match. */
const PATTERN_CANDIDATES = [
  'demo',
  'DEMO',
  'demo-1',
  'demo_1',
  '1',
  '0',
  'a',
  'A',
  'A1',
  'a1',
  '2025-01-01',
  'demo@example.com',
];

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The schema a local `$ref` (`#/$defs/x`, `#/definitions/x`) points at; the schema itself otherwise. */
function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    const path = current.$ref;
    if (!path.startsWith('#')) return current;
    let target: unknown = root;
    for (const part of path.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isSchema(target) ? target[key] : undefined;
    }
    if (!isSchema(target)) return current;
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** `allOf` folded into one schema: properties and required lists merged, other keywords the last one's. */
function merged(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  let out: JsonSchema = rest;
  for (const part of allOf as unknown[]) {
    if (!isSchema(part)) continue;
    const next = merged(resolve(part, root), root);
    out = {
      ...out,
      ...next,
      properties: {
        ...(isSchema(out.properties) ? out.properties : {}),
        ...(isSchema(next.properties) ? next.properties : {}),
      },
      required: [...new Set([...stringList(out.required), ...stringList(next.required)])],
    };
  }
  return out;
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The type an instance is made as: the schema's own, else the first of its list, else guessed from its keywords. */
function typeOf(schema: JsonSchema): string {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (typeof type === 'string') return type;
  if (isSchema(schema.properties) || schema.required !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'string';
}

function stringOf(schema: JsonSchema, choices: InstanceChoices): string {
  const min = numberOr(schema.minLength) ?? 0;
  const max = numberOr(schema.maxLength) ?? Infinity;
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const fit = (text: string) =>
    Array.from(text.length < min ? text.padEnd(min, '.') : text)
      .slice(0, max)
      .join('');
  const text = fit(format ?? choices.text);
  if (typeof schema.pattern !== 'string') return text;
  // A pattern: the demo's text if it matches, else the first of a few plain candidates that does.
  const matches = (value: string) => {
    try {
      return new RegExp(schema.pattern as string, 'u').test(value);
    } catch {
      return true;
    }
  };
  return [text, ...PATTERN_CANDIDATES.map(fit)].find(matches) ?? text;
}

function numberOf(schema: JsonSchema, integer: boolean): number {
  const low = numberOr(schema.minimum) ?? numberOr(schema.exclusiveMinimum);
  const high = numberOr(schema.maximum) ?? numberOr(schema.exclusiveMaximum);
  const step = integer ? 1 : 0.5;
  let value = low !== undefined ? low + (schema.minimum === undefined ? step : 0) : 0;
  if (high !== undefined && value > high) value = high - (schema.maximum === undefined ? step : 0);
  if (integer) value = Math.ceil(value);
  const multiple = numberOr(schema.multipleOf);
  if (multiple !== undefined && multiple > 0) value = Math.ceil(value / multiple) * multiple;
  return value;
}

function make(raw: JsonSchema, root: JsonSchema, choices: InstanceChoices, depth: number): unknown {
  const schema = merged(resolve(raw, root), root);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as unknown;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  const branch = branches?.find(isSchema);
  if (branch) return make({ ...schema, anyOf: undefined, oneOf: undefined, ...branch }, root, choices, depth);
  if (depth > MAX_DEPTH) return null;
  switch (typeOf(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return choices.yes;
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : {};
      const count = Math.min(Math.max(numberOr(schema.minItems) ?? 0, 1), numberOr(schema.maxItems) ?? 1);
      return Array.from({ length: count }, () => make(items, root, choices, depth + 1));
    }
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = new Set(stringList(schema.required));
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(properties)) {
        if (!isSchema(value) || (depth >= FULL_DEPTH && !required.has(key))) continue;
        out[key] = make(value, root, choices, depth + 1);
      }
      return out;
    }
    default:
      return stringOf(schema, choices);
  }
}

/** A valid instance of `schema` with the demo's choices for what the schema leaves open. */
export function schemaInstance(schema: JsonSchema, choices: InstanceChoices): unknown {
  return make(schema, schema, choices, 0);
}
