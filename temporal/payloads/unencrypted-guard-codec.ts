/**
 * Lets a worker with encryption keys see which payloads arrived unencrypted. The payload codecs
 * run outside the workflow sandbox and the workflow sees only decoded values, so this wrapper
 * around the worker's codecs hands the workflow, for every payload that was not encrypted under
 * the keys, a mark in its place — `{ "cairnUnencrypted": { "value": <the value as sent> } }`
 * (workflows/runtime/unencrypted-payload.ts) — which its message handlers refuse. Decoding is otherwise
 * unchanged; encoding is untouched. Deterministic: the same history decodes to the same marks.
 *
 * Payloads owned by an activity (its input, its result) are left alone: only workflows write
 * them. An unencrypted payload that cannot be read is marked without a value, never an error,
 * so no one without the keys can fail a workflow task with a damaged message. Workers only: the
 * codec server, clients and replays of recorded histories decode as before.
 */
import {
  defaultPayloadConverter,
  type Payload,
  type PayloadCodec,
  type SerializationContext,
} from '@temporalio/common';
import { UNENCRYPTED_MARK } from '../../workflows/runtime/unencrypted-payload';
import { ENCRYPTED_ENCODING } from './encryption-codec';
import { metadataText } from './payload-envelope';

/** The value a payload holds, when it is one a JSON mark can carry. */
function valueOf(payload: Payload): { value?: unknown } {
  try {
    const value: unknown = defaultPayloadConverter.fromPayload(payload);
    return value instanceof Uint8Array ? {} : { value };
  } catch {
    return {};
  }
}

const mark = (inner: { value?: unknown }): Payload => defaultPayloadConverter.toPayload({ [UNENCRYPTED_MARK]: inner });

/** Marks every payload not encrypted under the keys; decodes the others with `codecs`. */
export class UnencryptedGuardCodec implements PayloadCodec {
  /** @param codecs the worker's codecs, in encoding order (compression, encryption). */
  constructor(private readonly codecs: readonly PayloadCodec[]) {}

  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    let out = payloads;
    for (const codec of this.codecs) out = await codec.encode(out, context);
    return out;
  }

  async decode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    if (context?.type === 'activity') return this.decodeAll(payloads, context);
    const encrypted = payloads.filter((p) => metadataText(p, 'encoding') === ENCRYPTED_ENCODING);
    // The encrypted ones decode as one batch (one inflation budget); an error there is a key problem.
    const decoded = await this.decodeAll(encrypted, context);
    let next = 0;
    const out: Payload[] = [];
    for (const payload of payloads) {
      if (metadataText(payload, 'encoding') === ENCRYPTED_ENCODING) out.push(decoded[next++] as Payload);
      else out.push(mark(await this.readPlain(payload, context)));
    }
    return out;
  }

  /** The value of an unencrypted payload (decompressed if need be), or none when it does not read. */
  private async readPlain(payload: Payload, context?: SerializationContext): Promise<{ value?: unknown }> {
    try {
      const [plain] = await this.decodeAll([payload], context);
      return plain ? valueOf(plain) : {};
    } catch {
      return {};
    }
  }

  private async decodeAll(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    let out = payloads;
    for (const codec of [...this.codecs].reverse()) out = await codec.decode(out, context);
    return out;
  }
}
