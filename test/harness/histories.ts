/**
 * Recorded workflow histories for replay tests. An integration test saves the history of its
 * run here when CAIRN_RECORD_HISTORIES=1; the replay test replays every saved file against the
 * current workflow code, so a non-deterministic change fails CI.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { History } = temporal.api.history.v1;

export const HISTORIES_DIR = join(__dirname, '..', 'fixtures', 'histories');

/**
 * Saves the handle's history as `<name>@<workflow id>.binpb` (protobuf binary) when recording is
 * switched on. The workflow id is kept because replay needs it (child ids derive from it).
 * Binary because the SDK's `historyToJSON` trips over its own nested protobufjs copy under jest.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.CAIRN_RECORD_HISTORIES !== '1') return;
  const history = await handle.fetchHistory();
  for (const old of readdirSync(HISTORIES_DIR).filter((f) => f.startsWith(`${name}@`))) {
    rmSync(join(HISTORIES_DIR, old));
  }
  const file = `${name}@${encodeURIComponent(handle.workflowId)}.binpb`;
  writeFileSync(join(HISTORIES_DIR, file), History.encode(history).finish());
}

/** A saved history: its scenario name, the workflow id it ran under, and the events. */
export interface SavedHistory {
  name: string;
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

/** Every saved history. */
export function savedHistories(): SavedHistory[] {
  return readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith('.binpb'))
    .sort()
    .map((f) => {
      const [name = f, workflowId = name] = f.replace(/\.binpb$/, '').split('@');
      return {
        name,
        workflowId: decodeURIComponent(workflowId),
        history: History.decode(readFileSync(join(HISTORIES_DIR, f))),
      };
    });
}
