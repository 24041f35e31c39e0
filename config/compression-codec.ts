/**
 * Compresses payloads where it pays: conversations, file contents and tool results are text, so
 * histories shrink (BENCHMARKS.md#payload-compression) and replays read less. A payload below
 * COMPRESSION_THRESHOLD_BYTES, or one that deflate does not shrink by more than the envelope it
 * needs, stays as it is. Decoding leaves payloads this codec did not write untouched, so plain
 * histories (and those written before compression) still read.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { PayloadCodecError } from './payload-codec-error';
import { bytesOf, metadataText, openPayload, sealPayload } from './payload-envelope';

/** The `encoding` of a compressed payload. */
export const COMPRESSED_ENCODING = 'binary/deflate';

/**
 * Smaller payloads are left alone: measured on agent payloads, deflate saved under 30 bytes
 * below 256 bytes — about what the `encoding` entry of the compressed payload costs.
 */
export const COMPRESSION_THRESHOLD_BYTES = 256;

/** Bytes a compressed payload must save to be kept: the envelope and its metadata. */
const MIN_SAVING_BYTES = 32;

/** Decompressed payloads larger than this are refused: a deflate bomb must not exhaust memory. */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

const ENCODING = new TextEncoder().encode(COMPRESSED_ENCODING);

/** Deflates one payload when that saves enough, else returns it unchanged. */
function compress(payload: Payload): Payload {
  const size = bytesOf(payload.data).length + Object.keys(payload.metadata ?? {}).length * 16;
  if (size < COMPRESSION_THRESHOLD_BYTES) return payload;
  const sealed = sealPayload(payload);
  const deflated = deflateRawSync(sealed);
  if (deflated.length + MIN_SAVING_BYTES > sealed.length) return payload;
  return { metadata: { encoding: ENCODING }, data: new Uint8Array(deflated) };
}

/**
 * The payload as it was before compression; any other payload unchanged. Synchronous, for tools
 * that read recorded histories (tests, benchmarks) without a data converter.
 */
export function decompressPayload(payload: Payload): Payload {
  if (metadataText(payload, 'encoding') !== COMPRESSED_ENCODING) return payload;
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(bytesOf(payload.data), { maxOutputLength: MAX_INFLATED_BYTES });
  } catch {
    throw new PayloadCodecError('a compressed payload is damaged or truncated (it does not inflate)');
  }
  return openPayload(inflated);
}

/** The compression codec. */
export class CompressionCodec implements PayloadCodec {
  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads.map(compress));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    try {
      return Promise.resolve(payloads.map(decompressPayload));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
