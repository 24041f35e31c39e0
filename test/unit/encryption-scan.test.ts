/**
 * The encryption scan (test/harness/encryption-scan.ts) that the encrypted-payloads and
 * key-rotation tests run over real histories: fed a history with one payload left unencrypted —
 * wherever it sits — it names that payload; fed one whose only unencrypted payload is compressed,
 * it still names it, where a scan for marker text (what the encrypted-payloads test relied on
 * before) passes, since deflate hides a marker as well as encryption does.
 */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { COMPRESSED_ENCODING } from '../../temporal/payloads/compression-codec';
import { payloadCodecs } from '../../temporal/payloads/data-converter';
import { ENCRYPTED_ENCODING } from '../../temporal/payloads/encryption-codec';
import { scanEncryption } from '../harness/encryption-scan';

type History = temporal.api.history.v1.IHistory;
type Event = temporal.api.history.v1.IHistoryEvent;

const MARKER = `secret-marker-${randomBytes(4).toString('hex')}`;
const key = { id: 'k1', key: randomBytes(32) };

/** `value` as the codecs of `settings` would store it. */
async function stored(value: unknown, settings: { compression: boolean; encrypt: boolean }): Promise<Payload> {
  let payloads = [defaultPayloadConverter.toPayload(value)];
  const codecs = payloadCodecs({ compression: settings.compression, ...(settings.encrypt ? { keys: [key] } : {}) });
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads[0]!;
}

const long = (label: string) => ({ label, text: `${MARKER} `.repeat(40) });
const sealed = (label: string) => stored(long(label), { compression: true, encrypt: true });

/**
 * A history holding a payload in each place an event carries one — input, memo, user metadata,
 * signal, update, result, heartbeat details and a failure's details (with a cause) — every one
 * encrypted except the one `leak` puts in place of the payload at `leakAt`.
 */
async function historyWith(leak?: { at: string; payload: Payload }): Promise<History> {
  const p = async (at: string) => (leak?.at === at ? leak.payload : await sealed(at));
  const plainSearchAttribute = defaultPayloadConverter.toPayload(['running']);
  const plainPatch = defaultPayloadConverter.toPayload({ id: 'cairn-some-patch', deprecated: false });
  const plainLocalActivityData = defaultPayloadConverter.toPayload({ seq: 1, activity_type: 'listTools' });
  const events: Event[] = [
    {
      workflowExecutionStartedEventAttributes: {
        input: { payloads: [await p('input')] },
        memo: { fields: { task: await p('memo') } },
        searchAttributes: { indexedFields: { AgentPhase: plainSearchAttribute } },
      },
      userMetadata: { summary: await p('summary') },
    },
    {
      markerRecordedEventAttributes: {
        markerName: 'core_patch',
        details: { 'patch-data': { payloads: [plainPatch] } },
      },
    },
    {
      markerRecordedEventAttributes: {
        markerName: 'core_local_activity',
        details: { data: { payloads: [plainLocalActivityData] }, result: { payloads: [await p('local result')] } },
      },
    },
    {
      workflowExecutionSignaledEventAttributes: {
        signalName: 'stepProgress',
        input: { payloads: [await p('signal')] },
      },
    },
    {
      workflowExecutionUpdateAcceptedEventAttributes: {
        acceptedRequest: { input: { name: 'answer', args: { payloads: [await p('update')] } } },
      },
    },
    {
      activityTaskFailedEventAttributes: {
        failure: {
          message: 'plain by design',
          timeoutFailureInfo: { lastHeartbeatDetails: { payloads: [await p('heartbeat')] } },
          cause: { applicationFailureInfo: { type: 'LLM_UNAVAILABLE', details: { payloads: [await p('cause')] } } },
        },
      },
    },
    {
      activityTaskStartedEventAttributes: {
        lastFailure: { applicationFailureInfo: { details: { payloads: [await p('failure details')] } } },
      },
    },
    { workflowExecutionCompletedEventAttributes: { result: { payloads: [await p('result')] } } },
  ];
  return { events };
}

const PLACES = [
  'input',
  'memo',
  'summary',
  'local result',
  'signal',
  'update',
  'heartbeat',
  'cause',
  'failure details',
  'result',
];

test('a history with every payload encrypted passes, search attributes and SDK marker bookkeeping aside', async () => {
  const scan = scanEncryption(await historyWith());
  expect(scan.unencrypted).toEqual([]);
  expect(scan.payloads).toHaveLength(PLACES.length);
  expect(scan.payloads.every((s) => s.encoding === ENCRYPTED_ENCODING && s.keyId === 'k1')).toBe(true);
});

test.each(PLACES)('one plain payload in the %s fails the scan, which names where it is', async (at) => {
  const history = await historyWith({ at, payload: defaultPayloadConverter.toPayload(long(at)) });
  const { unencrypted } = scanEncryption(history);
  const where = scanEncryption(await historyWith()).payloads[PLACES.indexOf(at)]?.path;
  expect(unencrypted).toEqual([{ path: where, encoding: 'json/plain', keyId: undefined }]);
});

test('a payload compressed but not encrypted hides the marker from a text scan, and fails this one', async () => {
  const compressedOnly = await stored(long('result'), { compression: true, encrypt: false });
  expect(Buffer.from(compressedOnly.metadata!.encoding!).toString()).toBe(COMPRESSED_ENCODING);
  const history = await historyWith({ at: 'result', payload: compressedOnly });
  // What the encrypted-payloads test checked before: no marker in the stored bytes read as text,
  // and some payload encrypted. Both hold here, with one payload unencrypted.
  const asText = (_key: string, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v);
  const storedText = JSON.stringify(history, asText);
  expect(storedText).not.toContain(MARKER);
  expect(storedText).toContain(ENCRYPTED_ENCODING);
  // The same history with that payload left plain shows the marker: the text scan only missed
  // it because deflate hid it.
  const plain = await historyWith({ at: 'result', payload: defaultPayloadConverter.toPayload(long('result')) });
  expect(JSON.stringify(plain, asText)).toContain(MARKER);
  const { unencrypted } = scanEncryption(history);
  expect(unencrypted).toEqual([
    {
      path: 'histories[0].events[7].workflowExecutionCompletedEventAttributes.result.payloads[0]',
      encoding: COMPRESSED_ENCODING,
      keyId: undefined,
    },
  ]);
});

test('a payload of a Payloads list with no metadata at all fails, and each history of several is scanned', async () => {
  const bare: Payload = { data: new TextEncoder().encode(JSON.stringify(MARKER)) };
  const clean = await historyWith();
  const { unencrypted } = scanEncryption(clean, await historyWith({ at: 'signal', payload: bare }));
  expect(unencrypted).toEqual([
    {
      path: 'histories[1].events[3].workflowExecutionSignaledEventAttributes.input.payloads[0]',
      encoding: undefined,
      keyId: undefined,
    },
  ]);
});

test('an encrypted encoding that names no key fails', async () => {
  const noKey: Payload = {
    metadata: { encoding: new TextEncoder().encode(ENCRYPTED_ENCODING) },
    data: randomBytes(64),
  };
  const { unencrypted } = scanEncryption(await historyWith({ at: 'memo', payload: noKey }));
  expect(unencrypted.map((u) => u.path)).toEqual([
    'histories[0].events[0].workflowExecutionStartedEventAttributes.memo.fields.task',
  ]);
});
