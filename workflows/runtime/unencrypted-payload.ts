/**
 * Messages that reached a worker with encryption keys unencrypted. Such a worker's codecs hand
 * the workflow, in place of every payload not encrypted under its keys, a mark holding the value
 * as it came (temporal/payloads/unencrypted-guard-codec.ts): whoever wrote it lacked the keys — a client
 * with namespace access and nothing else, which once forged a two-person approval by signal.
 * Handlers refuse a marked message (a `signal.rejected` event for a signal; an update's
 * validator rejects it, so nothing is recorded), never by failing the workflow task; an agent
 * started that way fails with `NOT_ENCRYPTED`.
 *
 * The refusal is a patch: a run that accepted such a message before refusals existed (an
 * upgrade of the worker) replays as it ran, the value taken out of its mark.
 */
import { patched } from '@temporalio/workflow';
import { PATCHES } from '../base/patches';

/** The one key of a mark. */
export const UNENCRYPTED_MARK = 'cairnUnencrypted';

/** Why a marked message is refused, for events, update rejections and failures. */
export const UNENCRYPTED_REFUSAL =
  'it arrived unencrypted at a worker with encryption keys: send it from a process with CAIRN_ENCRYPTION_KEYS, or from the Temporal UI or temporal CLI through the codec server';

/** A mark: the payload's value as it came, when it could be read. */
export interface UnencryptedMark {
  [UNENCRYPTED_MARK]: { value?: unknown };
}

/** Whether `value` is a mark in place of an unencrypted payload (a check only: no patch, safe in validators). */
export function isUnencrypted(value: unknown): value is UnencryptedMark {
  if (typeof value !== 'object' || value === null || !(UNENCRYPTED_MARK in value)) return false;
  const inner: unknown = (value as Record<string, unknown>)[UNENCRYPTED_MARK];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner);
}

/** What a handler was sent: the value, or a refusal of an unencrypted one. */
export type Received = { refused: true } | { refused: false; value: unknown };

/**
 * The payload a handler was sent, or `refused` when it arrived unencrypted. In a run that took
 * such a payload before this change, replay gives back the value it took then.
 */
export function received(raw: unknown): Received {
  if (!isUnencrypted(raw)) return { refused: false, value: raw };
  if (patched(PATCHES.unencryptedRefused)) return { refused: true };
  return { refused: false, value: raw[UNENCRYPTED_MARK].value };
}
