/**
 * Recorded workflow histories for replay tests. An integration test saves the history of its
 * run here when CAIRN_RECORD_HISTORIES=1; the replay test replays every saved file against the
 * current workflow code, so a non-deterministic change fails CI.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { History } = temporal.api.history.v1;

export const HISTORIES_DIR = join(__dirname, '..', 'fixtures', 'histories');

/**
 * Saves the handle's history as `<name>.binpb` (protobuf binary, what `temporal workflow show
 * --output json` can re-export) when recording is switched on. Binary because the SDK's
 * `historyToJSON` trips over its own nested protobufjs copy under jest.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.CAIRN_RECORD_HISTORIES !== '1') return;
  const history = await handle.fetchHistory();
  writeFileSync(join(HISTORIES_DIR, `${name}.binpb`), History.encode(history).finish());
}

/** Every saved history, with its file name as the workflow id. */
export function savedHistories(): { workflowId: string; history: temporal.api.history.v1.IHistory }[] {
  return readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith('.binpb'))
    .sort()
    .map((f) => ({
      workflowId: f.replace(/\.binpb$/, ''),
      history: History.decode(readFileSync(join(HISTORIES_DIR, f))),
    }));
}
