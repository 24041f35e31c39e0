/**
 * The digest an approval is bound to (docs/contracts.md#interactions-and-answers): SHA-256 over the tool name
 * and its arguments in canonical JSON (keys sorted), so a human approves exactly these
 * arguments and any change needs a new approval. Pure JavaScript: safe in workflow code.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `sha256:<hex>` of the tool and its arguments. */
export function approvalDigest(tool: string, args: unknown): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(canonicalJson({ tool, arguments: args }))))}`;
}
