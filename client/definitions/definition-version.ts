/**
 * A definition's version: the SHA-256 of its resolved content as canonical JSON (keys sorted at
 * every level, no spaces), so the same content always has the same version wherever it is loaded,
 * and any change — an instruction, a parameter, a built-in template of the default definition —
 * makes a new one. The label is a name for people, not part of the version.
 */
import { createHash } from 'node:crypto';

/** `value` as canonical JSON: object keys sorted at every level, `undefined` members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The version of resolved content: its canonical JSON's SHA-256, hex. */
export function definitionVersion(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
