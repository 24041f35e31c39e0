import { inflateRawSync } from 'node:zlib';
import { COMPRESSED_ENCODING } from '../../temporal/payloads/compression-codec';

/** The encoding a payload-shaped object names, if any. */
function encodingOf(value: object): string | undefined {
  const metadata = (value as { metadata?: Record<string, unknown> | null }).metadata;
  const encoding = metadata?.encoding;
  return encoding instanceof Uint8Array ? Buffer.from(encoding).toString('utf8') : undefined;
}

/**
 * Every string of a workflow history, with payload bytes decoded as UTF-8: what a scan for
 * secrets (tokens, cookies, client secrets) must read, since payload data are bytes. Compressed
 * payloads (temporal/payloads/compression-codec.ts) are inflated first, so the scan reads their text too.
 */
export function historyText(value: unknown, out: string[] = []): string[] {
  if (value !== null && typeof value === 'object' && encodingOf(value) === COMPRESSED_ENCODING) {
    const data = (value as { data?: unknown }).data;
    if (data instanceof Uint8Array) out.push(inflateRawSync(data).toString('utf8'));
  }
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) historyText(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) historyText(item, out);
  return out;
}
