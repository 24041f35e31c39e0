/**
 * JSON has no Infinity or NaN: `1e400` parses to Infinity and then travels to the workflow as
 * `null`, which a form reads as "left empty" (and fills with the field's default). So clients
 * refuse non-finite numbers before sending anything.
 */

/**
 * The path (`answer.values.n`) of the first number in `value` that is not finite, if any.
 * @param root the name of `value` itself in the path.
 */
export function nonFiniteNumberPath(value: unknown, root: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : root;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nonFiniteNumberPath(inner, `${root}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
