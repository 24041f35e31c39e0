/**
 * The payload codecs (temporal/payloads/data-converter.ts): a round trip through compression and encryption,
 * and a clear error — naming the key where one is involved — for every way a payload can be
 * unreadable: tampered ciphertext, the wrong key under the right id, a truncated payload, an
 * unknown key id. Plain payloads (histories written before encryption) pass through.
 */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { COMPRESSED_ENCODING, COMPRESSION_THRESHOLD_BYTES } from '../../temporal/payloads/compression-codec';
import { cairnDataConverter, payloadCodecs } from '../../temporal/payloads/data-converter';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../temporal/payloads/encryption-codec';
import { PayloadCodecError } from '../../temporal/payloads/payload-codec-error';
import type { EncryptionKey } from '../../config/payload-config';

const keyA: EncryptionKey = { id: 'key-a', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'key-b', key: randomBytes(32) };
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('utf8');

async function encode(value: unknown, keys: EncryptionKey[] | undefined, compression = true): Promise<Payload> {
  const codecs = payloadCodecs({ compression, ...(keys ? { keys } : {}) });
  let payloads = [defaultPayloadConverter.toPayload(value)];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads[0]!;
}

async function decode(payload: Payload, keys: EncryptionKey[] | undefined, compression = true): Promise<unknown> {
  const codecs = payloadCodecs({ compression, ...(keys ? { keys } : {}) });
  let payloads = [payload];
  for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
  return defaultPayloadConverter.fromPayload(payloads[0]!);
}

const long = { task: 'MARKER-ONE '.repeat(100), answer: 42 };

test('a payload round-trips through compression and encryption, and names its key', async () => {
  const sealed = await encode(long, [keyA]);
  expect(text(sealed.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
  expect(text(sealed.metadata?.[KEY_ID_METADATA])).toBe('key-a');
  expect(text(sealed.data)).not.toContain('MARKER-ONE');
  expect(Object.keys(sealed.metadata ?? {}).sort()).toEqual(['encoding', KEY_ID_METADATA]);
  await expect(decode(sealed, [keyA])).resolves.toEqual(long);
});

test('compression alone shrinks a large text payload and leaves a small one alone', async () => {
  const big = await encode(long, undefined);
  expect(text(big.metadata?.encoding)).toBe(COMPRESSED_ENCODING);
  expect(big.data!.byteLength).toBeLessThan(defaultPayloadConverter.toPayload(long).data!.byteLength / 5);
  await expect(decode(big, undefined)).resolves.toEqual(long);
  const small = await encode({ ok: true }, undefined);
  expect(text(small.metadata?.encoding)).toBe('json/plain');
  expect(JSON.stringify({ ok: true }).length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
});

test('random bytes, which do not compress, are stored uncompressed', async () => {
  const noise = new Uint8Array(randomBytes(4096));
  expect(text((await encode(noise, undefined)).metadata?.encoding)).toBe('binary/plain');
});

test('old payloads decrypt with their key after rotation; new ones use the current key', async () => {
  const old = await encode(long, [keyA]);
  const rotated = [keyB, keyA];
  await expect(decode(old, rotated)).resolves.toEqual(long);
  const fresh = await encode(long, rotated);
  expect(text(fresh.metadata?.[KEY_ID_METADATA])).toBe('key-b');
});

test('plain payloads (written before encryption was on) pass through decode', async () => {
  const plain = defaultPayloadConverter.toPayload({ hello: 'world' });
  await expect(decode(plain, [keyA])).resolves.toEqual({ hello: 'world' });
});

test('an unknown key id is an error naming the key id', async () => {
  const sealed = await encode(long, [keyA]);
  const error = await decode(sealed, [keyB]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PayloadCodecError);
  expect((error as Error).message).toMatch(/key "key-a", which is not among the configured keys/);
  expect((error as PayloadCodecError).code).toBe('PAYLOAD_UNDECODABLE');
});

test('the wrong key under the right id fails authentication, naming the key id', async () => {
  const sealed = await encode(long, [keyA]);
  const impostor = { id: 'key-a', key: randomBytes(32) };
  await expect(decode(sealed, [impostor])).rejects.toThrow(/encrypted with key "key-a" fails authentication/);
});

test('tampered ciphertext fails authentication', async () => {
  const sealed = await encode(long, [keyA]);
  const data = Buffer.from(sealed.data!);
  data[20] = (data[20] ?? 0) ^ 0x01;
  await expect(decode({ ...sealed, data: new Uint8Array(data) }, [keyA])).rejects.toThrow(PayloadCodecError);
  await expect(decode({ ...sealed, data: new Uint8Array(data) }, [keyA])).rejects.toThrow(/fails authentication/);
});

test('a ciphertext moved under another key id fails (the id is authenticated)', async () => {
  const sealed = await encode(long, [keyA]);
  const relabelled = {
    ...sealed,
    metadata: { ...sealed.metadata, [KEY_ID_METADATA]: new TextEncoder().encode('key-b') },
  };
  await expect(decode(relabelled, [keyA, { id: 'key-b', key: keyA.key }])).rejects.toThrow(/fails authentication/);
});

test('a truncated payload is a clear error', async () => {
  const sealed = await encode(long, [keyA]);
  const cut = (n: number) => ({ ...sealed, data: sealed.data!.subarray(0, n) });
  await expect(decode(cut(10), [keyA])).rejects.toThrow(/encrypted with key "key-a" is truncated/);
  await expect(decode(cut(sealed.data!.byteLength - 5), [keyA])).rejects.toThrow(/fails authentication/);
  const compressed = await encode(long, undefined);
  const shortened = { ...compressed, data: compressed.data!.subarray(0, 10) };
  await expect(decode(shortened, undefined)).rejects.toThrow(/compressed payload is damaged or truncated/);
});

test('an encrypted payload without a key id is refused', async () => {
  const sealed = await encode(long, [keyA]);
  const anonymous = { ...sealed, metadata: { encoding: sealed.metadata!.encoding! } };
  await expect(decode(anonymous, [keyA])).rejects.toThrow(/names no encryption key id/);
});

test('no keys and no compression: no codecs at all', () => {
  expect(cairnDataConverter({ compression: false }).payloadCodecs).toEqual([]);
});

test('payload bytes held as a plain array (as some leave the workflow sandbox) are encoded all the same', async () => {
  const json = defaultPayloadConverter.toPayload(long);
  const asArray = { metadata: json.metadata, data: Array.from(json.data!) as unknown as Uint8Array };
  let payloads: Payload[] = [asArray];
  const codecs = payloadCodecs({ compression: true, keys: [keyA] });
  for (const codec of codecs) payloads = await codec.encode(payloads);
  for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
  expect(defaultPayloadConverter.fromPayload(payloads[0]!)).toEqual(long);
});

/**
 * The threshold docs/operations.md#encrypted-payloads states ("a payload of 256 bytes or more is
 * deflated when that saves at least 32 bytes"), written here rather than read from the code, so
 * that changing the constant fails this file. The codec counts a payload as its data plus 16
 * bytes for each metadata entry (a plain JSON payload has one, `encoding`).
 */
const DOCUMENTED_THRESHOLD_BYTES = 256;

test('compression starts at the documented 256 bytes', async () => {
  expect(COMPRESSION_THRESHOLD_BYTES).toBe(DOCUMENTED_THRESHOLD_BYTES);
  const [codec] = payloadCodecs({ compression: true });
  const ofSize = (bytes: number): Payload => ({
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new TextEncoder().encode(`"${'a'.repeat(bytes - 16 - 2)}"`), // very compressible
  });
  const [below, at] = await codec!.encode([ofSize(DOCUMENTED_THRESHOLD_BYTES - 1), ofSize(DOCUMENTED_THRESHOLD_BYTES)]);
  expect(text(below?.metadata?.encoding)).toBe('json/plain');
  expect(text(at?.metadata?.encoding)).toBe(COMPRESSED_ENCODING);
});

test('a payload whose key id breaks the key-id grammar is refused without repeating the id', async () => {
  const sealed = await encode(long, [keyA]);
  const crafted = 'a-'.repeat(30_000);
  const forged = { ...sealed, metadata: { ...sealed.metadata, [KEY_ID_METADATA]: new TextEncoder().encode(crafted) } };
  const refusal = await decode(forged, [keyA]).catch((err: unknown) => err);
  expect(refusal).toBeInstanceOf(PayloadCodecError);
  expect((refusal as PayloadCodecError).message).toMatch(/key-id grammar/);
  expect((refusal as PayloadCodecError).message).not.toContain('a-a-');
});
