/**
 * The tools an agent may use, read once per run from the worker (which tools exist is the
 * worker's configuration, so reading it is an activity, recorded in history).
 *
 * Since `PATCHES.localToolCatalogue` the read is a local activity: the catalogue sits in the
 * worker's memory, and a local activity runs inside the workflow task that asked for it, so the
 * planner's first model call is scheduled in that same task instead of one server round trip
 * later (a scheduled activity, its matching and a further workflow task). Runs recorded before
 * the patch replay the activity they scheduled.
 */
import { patched } from '@temporalio/workflow';
import { listTools, listToolsLocally } from '../activity-proxies';
import type { ToolInfo } from '../tools/tool-types';
import { PATCHES } from '../patches';

const SUMMARY = { summary: 'tool catalogue' };

/** The catalogue, narrowed to the agent's allow list when it has one. */
export function readToolCatalogue(allow: string[] | undefined): Promise<ToolInfo[]> {
  return patched(PATCHES.localToolCatalogue)
    ? listToolsLocally.executeWithOptions(SUMMARY, [allow])
    : listTools.executeWithOptions(SUMMARY, [allow]);
}
