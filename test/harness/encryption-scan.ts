/**
 * The encryption scan (docs/operations.md#encrypted-payloads): every payload of a recorded
 * workflow history, wherever an event carries one — inputs, results, signal and update
 * arguments, memo, user metadata (summaries), heartbeat details, failures' details, at any depth
 * of a failure's causes — must be `binary/encrypted` and name its key. Plain by design, and so
 * skipped (docs/operations.md#what-stays-plain): search attributes, which Temporal indexes, and
 * the bookkeeping entries the SDK's core writes into its own markers without the data converter —
 * a patch's id (`core_patch`), a local activity's sequence number, type and times
 * (`core_local_activity`'s `data`; its `result` is the activity's and is scanned).
 *
 * It reads payload metadata, not payload text: a scan for marker text cannot tell an encrypted
 * payload from a compressed one (deflate hides a marker as well as AES does), so a history with a
 * payload left compressed but unencrypted would pass it.
 */
import type { temporal } from '@temporalio/proto';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../temporal/payloads/encryption-codec';

/** One payload of a history: where it sits (a property path from the history), its encoding and key. */
export interface ScannedPayload {
  path: string;
  encoding: string | undefined;
  keyId: string | undefined;
}

/** What the scan saw: every payload it checked, and those of them that are not encrypted. */
export interface EncryptionScan {
  payloads: ScannedPayload[];
  unencrypted: ScannedPayload[];
}

/** The history fields Temporal reads in plain text, skipped whole. */
const PLAIN_BY_DESIGN = new Set(['searchAttributes']);

/** Per SDK marker name, the `details` entries the SDK's core writes itself, in plain JSON. */
const SDK_MARKER_BOOKKEEPING: Record<string, readonly string[]> = {
  core_patch: ['patch-data'],
  core_local_activity: ['data'],
};

/** Whether `key` of `node` holds payloads that are plain by design. */
function plainByDesign(node: object, key: string): boolean {
  if (PLAIN_BY_DESIGN.has(key)) return true;
  const markerName = (node as { markerName?: unknown }).markerName;
  return typeof markerName === 'string' && key === 'details' && markerName in SDK_MARKER_BOOKKEEPING;
}

/** A marker's `details` without the entries its SDK writes itself. */
function markerDetails(node: object): Record<string, unknown> {
  const { markerName, details } = node as { markerName: string; details?: Record<string, unknown> | null };
  const bookkeeping = SDK_MARKER_BOOKKEEPING[markerName] ?? [];
  return Object.fromEntries(Object.entries(details ?? {}).filter(([entry]) => !bookkeeping.includes(entry)));
}

/** The text of a payload metadata entry (bytes in a fetched history). */
function metadataEntry(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return typeof value === 'string' ? value : undefined;
}

/**
 * A payload is the one message of Temporal's history protos with a `metadata` map (the others are
 * `sdkMetadata`, `userMetadata`, `meteringMetadata`), so the scan needs no list of event types:
 * an event type Temporal adds later is scanned too.
 */
function asPayloadMetadata(node: object): Record<string, unknown> | undefined {
  if (!('metadata' in node)) return undefined;
  const metadata = node.metadata;
  return metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : undefined;
}

/**
 * Records the payloads under `node`. `slot`: `node` sits where only a payload can (an entry of a
 * `Payloads` list), so it counts as one even without metadata — and, having no encoding, fails.
 */
function visit(node: unknown, path: string, found: ScannedPayload[], slot = false): void {
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return;
  const metadata = asPayloadMetadata(node) ?? (slot ? {} : undefined);
  if (metadata) {
    found.push({
      path,
      encoding: metadataEntry(metadata, 'encoding'),
      keyId: metadataEntry(metadata, KEY_ID_METADATA),
    });
    return; // an encrypted payload's data is ciphertext: nothing further to walk
  }
  if (Array.isArray(node)) {
    const payloadList = path.endsWith('.payloads');
    node.forEach((item, i) => visit(item, `${path}[${i}]`, found, payloadList));
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!plainByDesign(node, key)) visit(value, at, found);
    else if (key === 'details') visit(markerDetails(node), at, found);
  }
}

/** Whether a scanned payload is encrypted: the codec's encoding, and a key named. */
export function isEncrypted(payload: ScannedPayload): boolean {
  return payload.encoding === ENCRYPTED_ENCODING && payload.keyId !== undefined && payload.keyId !== '';
}

/** Scans one history (or several: the agent's and its children's) for payloads left unencrypted. */
export function scanEncryption(...histories: temporal.api.history.v1.IHistory[]): EncryptionScan {
  const payloads: ScannedPayload[] = [];
  histories.forEach((history, h) => visit(history.events ?? [], `histories[${h}].events`, payloads));
  return { payloads, unencrypted: payloads.filter((p) => !isEncrypted(p)) };
}
