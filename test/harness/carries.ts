/**
 * Kept carries: what an agent run handed the next when it continued as new, as JSON, per
 * release — `test/fixtures/carry/<release>/<scenario>.json`. Taken from a recorded history
 * (the continue-as-new event's second argument, decoded with the SDK's payload converter), so
 * a kept carry is exactly what that release's code wrote. The carry test reads every kept carry
 * of every release with the current code (workflows/agent/carry-migration.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { currentRelease, isRelease, releaseFolders } from '../../scripts/fixture-releases';
import { decompressPayload } from '../../config/compression-codec';

export const CARRIES_DIR = join(__dirname, '..', 'fixtures', 'carry');

/**
 * The carry an agent run's history ends with: the continue-as-new event's second argument
 * (the first is the agent input). Undefined when the run is not an agent or did not roll over.
 */
export function carryOf(history: temporal.api.history.v1.IHistory): unknown {
  const events = history.events ?? [];
  if (events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name !== 'agentWorkflow') return undefined;
  const payload = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads?.[1];
  return payload ? defaultPayloadConverter.fromPayload(decompressPayload(payload)) : undefined;
}

/**
 * Keeps the carry of a recorded agent history that continued as new, in the current release's
 * folder, unless that scenario's carry is already kept (kept fixtures are append-only).
 */
export function recordCarry(name: string, history: temporal.api.history.v1.IHistory): void {
  const carry = carryOf(history);
  if (carry === undefined) return;
  const dir = join(CARRIES_DIR, currentRelease());
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, `${name}.json`))) return;
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(carry, null, 2)}\n`);
}

/** A kept carry: its release and scenario, and the JSON as written. */
export interface SavedCarry {
  release: string;
  name: string;
  carry: unknown;
}

/** Every kept carry of every release, oldest release first. */
export function savedCarries(): SavedCarry[] {
  return releaseFolders(CARRIES_DIR)
    .filter(isRelease)
    .flatMap((release) =>
      readdirSync(join(CARRIES_DIR, release))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => ({
          release,
          name: f.replace(/\.json$/, ''),
          carry: JSON.parse(readFileSync(join(CARRIES_DIR, release, f), 'utf8')) as unknown,
        })),
    );
}
