/**
 * Who answered, when the answer came by signal: nobody Cairn vouches for. Cairn's HTTP server
 * answers by update, with the actor it authenticated; a signal comes from the Temporal UI,
 * `temporal workflow signal` or any client with write access to the namespace, so whatever actor
 * it names is dropped: the answer is recorded as `temporal-signal` under its `by`, and a role an
 * approval needs cannot be claimed this way (docs/operations.md#who-answered-the-audit-record).
 */
import { patched } from '@temporalio/workflow';
import { PATCHES } from '../base/patches';

/**
 * A signal's payload without the `actor` it claims. Cairn's HTTP server answers by update; a
 * signal comes from the Temporal UI, `temporal workflow signal` or any client with write access,
 * so whatever actor it names is not vouched for: the answer is recorded as `temporal-signal`
 * under its `by`, and a role the approval needs cannot be claimed this way.
 */
export function untrustedActor(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !('actor' in raw)) return raw;
  if (!patched(PATCHES.signalActorUntrusted)) return raw;
  const { actor: _claimed, ...rest } = raw as Record<string, unknown>;
  return rest;
}
