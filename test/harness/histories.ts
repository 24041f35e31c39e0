/**
 * Recorded workflow histories for replay tests, per version: `test/fixtures/histories/
 * <version>/<scenario>@<workflow id>.binpb`, the version being package.json's. An integration
 * test saves the history of its run into the CURRENT version's folder when
 * CAIRN_RECORD_HISTORIES=1; the folders of releases are never written again
 * (scripts/check-fixtures.ts fails CI if one changed). The replay test replays every history of
 * every version against the current workflow code, so a change that would break a run started
 * on any release fails CI.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { currentVersion, isDevVersion, isVersion, releaseFolders } from '../../scripts/fixture-releases';
import { recordCarry } from './carries';

const { History } = temporal.api.history.v1;

/**
 * The data converter replays run with: compression and encryption on, as a worker with
 * CAIRN_ENCRYPTION_KEYS set runs — so compressed payloads (recorded since 0.3.0) decode, and
 * plain ones of earlier releases pass through.
 */
export const replayConverter = cairnDataConverter({
  compression: true,
  keys: [{ id: 'replay', key: randomBytes(32) }],
});

export const HISTORIES_DIR = join(__dirname, '..', 'fixtures', 'histories');

/**
 * Saves the handle's history as `<version>/<name>@<workflow id>.binpb` (protobuf binary) when
 * recording is switched on. In a release's folder kept recordings are never replaced
 * (scripts/check-fixtures.ts), so a scenario already there is left as it is; in a development
 * version's folder (`X.Y.Z-dev`) a new recording replaces the scenario's earlier one, since
 * nothing recorded there is kept until the release. The workflow id is kept because replay
 * needs it (child ids derive from it). Binary because the SDK's `historyToJSON` trips over its
 * own nested protobufjs copy under jest. A run that ended by continuing as new also leaves its
 * carry (test/harness/carries.ts).
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.CAIRN_RECORD_HISTORIES !== '1') return;
  const version = currentVersion();
  const dir = join(HISTORIES_DIR, version);
  mkdirSync(dir, { recursive: true });
  const earlier = readdirSync(dir).filter((f) => f.startsWith(`${name}@`));
  if (earlier.length > 0 && !isDevVersion(version)) return;
  const history = await handle.fetchHistory();
  for (const file of earlier) rmSync(join(dir, file));
  const file = `${name}@${encodeURIComponent(handle.workflowId)}.binpb`;
  writeFileSync(join(dir, file), History.encode(history).finish());
  recordCarry(name, history);
}

/** A saved history: its release and scenario name, the workflow id it ran under, and the events. */
export interface SavedHistory {
  release: string;
  name: string;
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

/** Every saved history of every release, oldest release first. */
export function savedHistories(): SavedHistory[] {
  return releaseFolders(HISTORIES_DIR)
    .filter(isVersion)
    .flatMap((release) =>
      readdirSync(join(HISTORIES_DIR, release))
        .filter((f) => f.endsWith('.binpb'))
        .sort()
        .map((f) => {
          const [name = f, workflowId = name] = f.replace(/\.binpb$/, '').split('@');
          return {
            release,
            name,
            workflowId: decodeURIComponent(workflowId),
            history: History.decode(readFileSync(join(HISTORIES_DIR, release, f))),
          };
        }),
    );
}

/**
 * Replays `histories` through one replay worker on `workflowBundle` (through the codecs a worker
 * with encryption on uses); what each raised, in their order (undefined: replayed).
 */
export async function replayAll(
  workflowBundle: { codePath: string } | { code: string },
  histories: SavedHistory[],
): Promise<(Error | undefined)[]> {
  const runs = histories.map(({ workflowId, history }) => ({ workflowId, history }));
  const errors: (Error | undefined)[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle, dataConverter: replayConverter }, runs)) {
    // Results come in the order the histories went in; a mismatch would misname every verdict.
    const saved = histories[errors.length];
    if (saved?.workflowId !== result.workflowId)
      throw new Error(`replay result ${errors.length} is not ${saved?.workflowId}'s`);
    errors.push(result.error);
  }
  if (errors.length !== histories.length) throw new Error(`${errors.length} of ${histories.length} histories replayed`);
  return errors;
}
