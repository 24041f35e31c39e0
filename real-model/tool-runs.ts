/**
 * How often each step ran the same tool call, read from the step workflows' histories: every
 * `runTool` activity scheduled, keyed by tool name and arguments (parsed and written back with
 * sorted keys, so spacing and key order do not make two calls differ). A call Cairn refuses
 * never becomes an activity, so this counts what actually ran.
 */
import { runHistories } from '../testkit/run-histories';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { stepWorkflowId } from '../workflows/ids';

const toolInput = z.object({ name: z.string(), arguments: z.unknown() });

/** The most-repeated call of one step. */
export interface RepeatedCall {
  stepId: string;
  call: string;
  runs: number;
}

/** JSON with sorted keys: the identity of a call's arguments. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function callKey(event: temporal.api.history.v1.IHistoryEvent): string | undefined {
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled?.activityType?.name !== 'runTool') return undefined;
  const data = scheduled.input?.payloads?.[0]?.data;
  if (!data) return undefined;
  const parsed = toolInput.safeParse(JSON.parse(Buffer.from(data).toString('utf8')));
  if (!parsed.success) return undefined;
  const args = parsed.data.arguments;
  let identity = args;
  if (typeof args === 'string') {
    try {
      identity = JSON.parse(args);
    } catch {
      identity = args; // not JSON: the text itself is the identity
    }
  }
  return `${parsed.data.name} ${canonical(identity)}`;
}

/** For each step of agent `agentId` that ran a tool, its most-repeated identical call. */
export async function repeatedCalls(client: Client, agentId: string, stepIds: string[]): Promise<RepeatedCall[]> {
  const out: RepeatedCall[] = [];
  for (const stepId of stepIds) {
    const runs = await runHistories(client, stepWorkflowId(agentId, stepId)).catch(() => []);
    const counts = new Map<string, number>();
    for (const event of runs.flatMap((h) => h.events ?? [])) {
      const key = callKey(event);
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1])[0];
    if (top) out.push({ stepId, call: top[0].slice(0, 120), runs: top[1] });
  }
  return out;
}
