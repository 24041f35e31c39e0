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

/**
 * The most one compressed payload may inflate to. Cairn's own payloads are far smaller (the
 * largest event of the 500-round benchmark is 27 KB); a deflate bomb must not exhaust memory.
 */
export const MAX_INFLATED_PAYLOAD_BYTES = 16 * 1024 * 1024;

/**
 * The most the payloads of one decode call may inflate to together: one codec-server request
 * (a page of history in the Temporal UI), one batch a worker decodes. Without it a request of
 * a few hundred KiB made the server hold gigabytes (each payload within its own cap).
 */
export const MAX_INFLATED_DECODE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

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

/** Whether `payload` is one this codec compressed. */
const isCompressed = (payload: Payload) => metadataText(payload, 'encoding') === COMPRESSED_ENCODING;

/**
 * The envelope a compressed payload inflates to, at most `limit` bytes.
 * @throws PayloadCodecError `DECODE_TOO_LARGE` past the limit, `PAYLOAD_UNDECODABLE` when damaged.
 */
function inflate(payload: Payload, limit: number): Buffer {
  if (limit < 1) throw tooLarge();
  try {
    return inflateRawSync(bytesOf(payload.data), { maxOutputLength: limit });
  } catch (err) {
    // Node's code for "past maxOutputLength" (matched by code: the class may be another realm's).
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge();
    throw new PayloadCodecError('a compressed payload is damaged or truncated (it does not inflate)');
  }
}

function tooLarge(): PayloadCodecError {
  const each = MAX_INFLATED_PAYLOAD_BYTES / MIB;
  const all = MAX_INFLATED_DECODE_BYTES / MIB;
  return new PayloadCodecError(
    `compressed payloads inflate past the decode budget (${each} MiB each, ${all} MiB for all payloads of one decode)`,
    'DECODE_TOO_LARGE',
  );
}

/**
 * The payload as it was before compression; any other payload unchanged. Synchronous, for tools
 * that read recorded histories (tests, benchmarks) without a data converter.
 */
export function decompressPayload(payload: Payload): Payload {
  return isCompressed(payload) ? openPayload(inflate(payload, MAX_INFLATED_PAYLOAD_BYTES)) : payload;
}

/** The compression codec. */
export class CompressionCodec implements PayloadCodec {
  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads.map(compress));
  }

  /** Decodes under one budget for the whole batch (MAX_INFLATED_DECODE_BYTES). */
  decode(payloads: Payload[]): Promise<Payload[]> {
    try {
      let left = MAX_INFLATED_DECODE_BYTES;
      const decoded = payloads.map((payload) => {
        if (!isCompressed(payload)) return payload;
        const envelope = inflate(payload, Math.min(left, MAX_INFLATED_PAYLOAD_BYTES));
        left -= envelope.length;
        return openPayload(envelope);
      });
      return Promise.resolve(decoded);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
