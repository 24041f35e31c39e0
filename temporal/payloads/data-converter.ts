/**
 * The data converter of every Temporal client and worker Cairn opens: the SDK's payload converter
 * (JSON), then the payload codecs — compression, then encryption when keys are configured
 * (docs/operations.md#encrypted-payloads). Workers, the client library, the HTTP server (also as
 * its codec server), the CLI, the replay gate, the chaos lab, the cluster suite and the benchmarks
 * all build theirs here, so a payload one writes the others read.
 */
import type { DataConverter, PayloadCodec } from '@temporalio/common';
import { CompressionCodec } from './compression-codec';
import { EncryptionCodec } from './encryption-codec';
import type { PayloadSettings } from '../../config/payload-config';
import { UnencryptedGuardCodec } from './unencrypted-guard-codec';

/** The codecs, in encoding order (decoding runs them backwards). */
export function payloadCodecs(settings: PayloadSettings): PayloadCodec[] {
  const codecs: PayloadCodec[] = [];
  if (settings.compression) codecs.push(new CompressionCodec());
  if (settings.keys && settings.keys.length > 0) codecs.push(new EncryptionCodec(settings.keys));
  return codecs;
}

/** The data converter for `new Client(…)`, `Worker.create(…)` and replay. */
export function cairnDataConverter(settings: PayloadSettings): DataConverter {
  return { payloadCodecs: payloadCodecs(settings) };
}

/** Whether payloads are encrypted: then what Temporal stores in plain text carries no task text. */
export function encryptionOn(settings: PayloadSettings): boolean {
  return (settings.keys?.length ?? 0) > 0;
}

/**
 * The data converter of a worker: the same codecs, and — with encryption keys, unless
 * CAIRN_PLAINTEXT_MESSAGES=accept (a migration) — a mark in place of every payload that arrived
 * unencrypted, which the workflow's message handlers refuse (temporal/payloads/unencrypted-guard-codec.ts).
 */
export function workerDataConverter(settings: PayloadSettings): DataConverter {
  if (!encryptionOn(settings) || settings.plaintextMessages === 'accept') return cairnDataConverter(settings);
  return { payloadCodecs: [new UnencryptedGuardCodec(payloadCodecs(settings))] };
}
