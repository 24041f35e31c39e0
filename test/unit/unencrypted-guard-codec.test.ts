/**
 * The worker's guard around its codecs (temporal/payloads/unencrypted-guard-codec.ts): with keys, a payload
 * encrypted under them decodes as before, and every other one becomes a mark holding its value —
 * plain, compressed by a client without the keys, or unreadable (a mark without a value, never an
 * error). Activity-owned payloads are left alone; without keys, or with
 * CAIRN_PLAINTEXT_MESSAGES=accept, a worker decodes as any client does.
 */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { COMPRESSED_ENCODING } from '../../temporal/payloads/compression-codec';
import { cairnDataConverter, workerDataConverter } from '../../temporal/payloads/data-converter';
import type { PayloadSettings } from '../../config/payload-config';
import { UNENCRYPTED_MARK } from '../../workflows/runtime/unencrypted-payload';

const keyed: PayloadSettings = { compression: true, keys: [{ id: 'k1', key: randomBytes(32) }] };
const message = { interactionId: 'i1', answer: { decision: 'approve' }, note: 'x'.repeat(400) };

async function encode(settings: PayloadSettings, value: unknown): Promise<Payload> {
  let payloads = [defaultPayloadConverter.toPayload(value)];
  for (const codec of cairnDataConverter(settings).payloadCodecs ?? []) payloads = await codec.encode(payloads);
  return payloads[0]!;
}

async function workerDecode(settings: PayloadSettings, payload: Payload, activity = false): Promise<unknown> {
  const codecs: PayloadCodec[] = [...(workerDataConverter(settings).payloadCodecs ?? [])].reverse();
  const context = activity
    ? { type: 'activity' as const, namespace: 'default', isLocal: false }
    : { type: 'workflow' as const, namespace: 'default', workflowId: 'agent-1' };
  let payloads = [payload];
  for (const codec of codecs) payloads = await codec.decode(payloads, context);
  return defaultPayloadConverter.fromPayload(payloads[0]!);
}

test('an encrypted payload decodes as before; a plain or keyless-compressed one becomes a mark with its value', async () => {
  expect(await workerDecode(keyed, await encode(keyed, message))).toEqual(message);
  expect(await workerDecode(keyed, defaultPayloadConverter.toPayload(message))).toEqual({
    [UNENCRYPTED_MARK]: { value: message },
  });
  const compressed = await encode({ compression: true }, message);
  expect(Buffer.from(compressed.metadata?.encoding ?? []).toString()).toBe(COMPRESSED_ENCODING);
  expect(await workerDecode(keyed, compressed)).toEqual({ [UNENCRYPTED_MARK]: { value: message } });
});

test('an unencrypted payload that does not read is a mark without a value, not an error', async () => {
  const damaged: Payload = {
    metadata: { encoding: new TextEncoder().encode(COMPRESSED_ENCODING) },
    data: new Uint8Array([1, 2, 3, 4]),
  };
  expect(await workerDecode(keyed, damaged)).toEqual({ [UNENCRYPTED_MARK]: {} });
  const notJson: Payload = {
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new Uint8Array([123]),
  };
  expect(await workerDecode(keyed, notJson)).toEqual({ [UNENCRYPTED_MARK]: {} });
});

test('activity-owned payloads, workers without keys and CAIRN_PLAINTEXT_MESSAGES=accept decode as before', async () => {
  const plain = defaultPayloadConverter.toPayload(message);
  expect(await workerDecode(keyed, plain, true)).toEqual(message);
  expect(await workerDecode({ compression: true }, plain)).toEqual(message);
  expect(await workerDecode({ ...keyed, plaintextMessages: 'accept' }, plain)).toEqual(message);
});
