/**
 * Encrypts payloads with AES-256-GCM under the current key of the key ring
 * (config/payload-config.ts), naming the key in the payload's metadata so that payloads written
 * under an older key still decrypt while that key is kept: rotation without downtime. Runs in
 * clients and workers outside the workflow sandbox (Node's crypto), as every payload codec does.
 *
 * The encrypted payload: metadata `encoding: binary/encrypted` and `encryption-key-id: <id>`;
 * data = 12-byte IV, ciphertext of the whole original payload (temporal/payloads/payload-envelope.ts), 16-byte
 * GCM tag. The key id is authenticated data, so moving a ciphertext under another id fails.
 * Payloads without that encoding (plain histories, those written before encryption was turned on)
 * pass through decode untouched.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { isKeyId, type EncryptionKey } from '../../config/payload-config';
import { PayloadCodecError } from './payload-codec-error';
import { bytesOf, metadataText, openPayload, sealPayload } from './payload-envelope';

/** The `encoding` of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** The metadata entry naming the key a payload was encrypted with. */
export const KEY_ID_METADATA = 'encryption-key-id';

/** Why a payload whose key id breaks the key-id grammar is refused (the id itself is not repeated). */
export const KEY_ID_REFUSED =
  'an encrypted payload names a key id outside the key-id grammar (1 to 64 letters, digits, ".", "_", "-")';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const text = (s: string) => new TextEncoder().encode(s);

/** The encryption codec over a key ring; the first key is current. */
export class EncryptionCodec implements PayloadCodec {
  private readonly byId: ReadonlyMap<string, Buffer>;
  private readonly current: EncryptionKey;

  constructor(keys: readonly EncryptionKey[]) {
    const [current] = keys;
    if (!current) throw new Error('EncryptionCodec needs at least one key');
    this.current = current;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads.map((p) => this.encrypt(p)));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    try {
      return Promise.resolve(payloads.map((p) => this.decrypt(p)));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private encrypt(payload: Payload): Payload {
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(id, 'utf8'));
    const body = Buffer.concat([cipher.update(sealPayload(payload)), cipher.final()]);
    return {
      metadata: { encoding: text(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: text(id) },
      data: new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()])),
    };
  }

  private decrypt(payload: Payload): Payload {
    if (metadataText(payload, 'encoding') !== ENCRYPTED_ENCODING) return payload;
    const id = metadataText(payload, KEY_ID_METADATA);
    if (id === undefined) throw new PayloadCodecError('an encrypted payload names no encryption key id');
    // Not repeated: it may be anything, of any length, and it ends up in logs.
    if (!isKeyId(id)) throw new PayloadCodecError(KEY_ID_REFUSED);
    const key = this.byId.get(id);
    if (!key) {
      throw new PayloadCodecError(
        `a payload is encrypted with key "${id}", which is not among the configured keys (CAIRN_ENCRYPTION_KEYS)`,
      );
    }
    const data = bytesOf(payload.data);
    if (data.length < IV_BYTES + TAG_BYTES) {
      throw new PayloadCodecError(`a payload encrypted with key "${id}" is truncated`);
    }
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(id, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadCodecError(
        `a payload encrypted with key "${id}" fails authentication: it was altered or truncated, or key "${id}" is not the key it was written with`,
      );
    }
    return openPayload(plain);
  }
}
