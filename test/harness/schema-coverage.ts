/**
 * Whether values said to have "every field set" really set every field their zod schema names,
 * so a round trip through the schema proves that nothing is lost: the paths of the schema that
 * the values leave unset. An object key no value sets, an array or a record that is empty in
 * every value (its elements are then never checked), and a union option no value takes each
 * count as unset. A schema that gains a field therefore fails the test of its full value until
 * that value sets the field too.
 */
import type { z } from 'zod';

/** The parts of a zod definition the walk follows (zod 4's `_zod.def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

/** Wrappers whose inner schema describes the value (absent and null values aside). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

const defOf = (schema: z.ZodType): Def => schema._zod.def;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How an option of a union is named in a path: `<kind=ask.query>` for a discriminated one, else `|<index>`. */
function optionLabel(option: z.ZodType, index: number, discriminator: string | undefined): string {
  const key = discriminator && defOf(option).shape?.[discriminator];
  const values = key ? (key._zod as { values?: Set<unknown> }).values : undefined;
  return values ? `<${discriminator}=${[...values].map(String).join('|')}>` : `|${index}`;
}

/** What a walk found: the unset paths, and each union with the options some value took. */
interface Walk {
  unset: string[];
  unions: Map<z.ZodType, { labels: string[]; taken: Set<number> }>;
}

function walk(schema: z.ZodType, values: readonly unknown[], path: string, found: Walk): void {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) {
    walk(
      def.innerType,
      values.filter((v) => v !== undefined && v !== null),
      path,
      found,
    );
  } else if (def.type === 'object' && def.shape) {
    for (const [key, field] of Object.entries(def.shape)) {
      const set = values.filter(isRecord).flatMap((v) => (v[key] === undefined ? [] : [v[key]]));
      if (set.length === 0) found.unset.push(`${path}.${key}`);
      else walk(field, set, `${path}.${key}`, found);
    }
  } else if (def.type === 'array' && def.element) {
    const elements = values.filter(Array.isArray).flat() as unknown[];
    if (elements.length === 0) found.unset.push(`${path}[]`);
    else walk(def.element, elements, `${path}[]`, found);
  } else if (def.type === 'record' && def.valueType) {
    const entries = values.filter(isRecord).flatMap((v) => Object.values(v));
    if (entries.length === 0) found.unset.push(`${path}{}`);
    else walk(def.valueType, entries, `${path}{}`, found);
  } else if (def.type === 'union' && def.options) {
    walkUnion(schema, def.options, def.discriminator, values, path, found);
  } else if (def.type === 'pipe' && def.in) {
    walk(def.in, values, path, found);
  } else if (def.type === 'intersection' && def.left && def.right) {
    walk(def.left, values, path, found);
    walk(def.right, values, path, found);
  } else if (def.type === 'lazy' && def.getter) {
    walk(def.getter(), values, path, found);
  }
  // Anything else is a leaf: a string, a number, an enum, a literal, a custom check, unknown.
}

/**
 * A union: each value walks the option that takes it (the first, as zod's parse picks it). An
 * option counts as taken when some value anywhere took it — one union schema used in several
 * places (the answer of every interaction kind) needs each option once, not once per place.
 */
function walkUnion(
  union: z.ZodType,
  options: z.ZodType[],
  discriminator: string | undefined,
  values: readonly unknown[],
  path: string,
  found: Walk,
): void {
  const labels = options.map((option, index) => `${path}${optionLabel(option, index, discriminator)}`);
  const seen = found.unions.get(union) ?? { labels, taken: new Set<number>() };
  found.unions.set(union, seen);
  const taker = (value: unknown) => options.findIndex((option) => option.safeParse(value).success);
  options.forEach((option, index) => {
    const taken = values.filter((v) => taker(v) === index);
    if (taken.length === 0) return;
    seen.taken.add(index);
    walk(option, taken, labels[index] ?? path, found);
  });
}

/**
 * The paths of `schema` that `values` leave unset: `(value).state.plan`, `(value).tools[]`,
 * `(value).spec<kind=ask.form>`. Empty when together they set every field, fill every array and
 * record, and take every union option.
 */
export function unsetFields(schema: z.ZodType, values: readonly unknown[]): string[] {
  const found: Walk = { unset: [], unions: new Map() };
  walk(schema, values, '(value)', found);
  const untaken = [...found.unions.values()].flatMap(({ labels, taken }) => labels.filter((_, i) => !taken.has(i)));
  return [...found.unset, ...untaken];
}
