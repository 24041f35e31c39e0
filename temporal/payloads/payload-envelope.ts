/**
 * A whole Temporal payload (metadata and data) as bytes, so that a codec can compress or encrypt
 * its metadata too (`encoding` alone says what a payload holds). Layout: 4 bytes big-endian
 * length of a JSON object `{ "<metadata key>": "<base64 value>" }`, that object, then the data.
 */
import type { Payload } from '@temporalio/common';
import { z } from 'zod';
import { PayloadCodecError } from './payload-codec-error';

const metadataSchema = z.record(z.string(), z.string());

/**
 * The bytes of a payload field as a Buffer. Payloads coming out of the workflow sandbox may hold
 * their bytes as another realm's Uint8Array or a plain array of numbers; Buffer.from takes both.
 */
export function bytesOf(value: Uint8Array | ArrayLike<number> | null | undefined): Buffer {
  return value ? Buffer.from(value as ArrayLike<number>) : Buffer.alloc(0);
}

/** The payload as bytes. */
export function sealPayload(payload: Payload): Buffer {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) {
    if (value) metadata[key] = bytesOf(value).toString('base64');
  }
  const head = Buffer.from(JSON.stringify(metadata), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, bytesOf(payload.data)]);
}

/** The payload `sealPayload` made; throws PayloadCodecError when the bytes are not one. */
export function openPayload(bytes: Uint8Array): Payload {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 4) throw new PayloadCodecError('the payload is truncated (no envelope header)');
  const headLength = buffer.readUInt32BE(0);
  if (buffer.length < 4 + headLength)
    throw new PayloadCodecError('the payload is truncated (envelope header cut short)');
  let parsed: z.infer<typeof metadataSchema>;
  try {
    parsed = metadataSchema.parse(JSON.parse(buffer.subarray(4, 4 + headLength).toString('utf8')));
  } catch {
    throw new PayloadCodecError('the payload envelope is damaged (its metadata is not readable)');
  }
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(parsed)) metadata[key] = new Uint8Array(Buffer.from(value, 'base64'));
  return { metadata, data: new Uint8Array(buffer.subarray(4 + headLength)) };
}

/** The text of a metadata entry, if present. */
export function metadataText(payload: Payload, key: string): string | undefined {
  const value = payload.metadata?.[key];
  return value ? bytesOf(value).toString('utf8') : undefined;
}
