/**
 * What each step's tools did, read from the step workflows' histories: every `runTool` activity
 * scheduled, keyed by tool name and arguments (parsed and written back with sorted keys, so
 * spacing and key order do not make two calls differ), and how many completed. A call Cairn
 * refuses never becomes an activity, so this counts what actually ran; and of those, the runs
 * whose tool did its work (the activity completed with an `ok` outcome: a tool that failed —
 * a missing file, a refused path — completes its activity too, and is not counted as one that
 * did). Inputs and results are decoded through the worker's payload codecs (compression,
 * encryption), as a client would.
 */
import { status } from '@grpc/grpc-js';
import { isGrpcServiceError, ServiceError, type Client } from '@temporalio/client';
import { defaultPayloadConverter, WorkflowNotFoundError, type Payload, type PayloadCodec } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { runHistories } from '../testkit/run-histories';
import { stepWorkflowId } from '../workflows/base/ids';

const toolInput = z.object({ name: z.string(), arguments: z.unknown() });
const toolOutcome = z.object({ ok: z.boolean() });

/** The most-repeated call of one step, and how many tool runs of the step completed. */
export interface RepeatedCall {
  stepId: string;
  call: string;
  runs: number;
  /** `runTool` activities of the step that completed (the tool's own failure included). */
  completed: number;
  /** Of those, the runs whose tool did its work: an `ok: true` outcome. */
  succeeded: number;
}

/** JSON with sorted keys: the identity of a call's arguments. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Decodes one payload the way the worker encoded it: its codecs in reverse, then the payload converter. */
export async function decodePayload(codecs: PayloadCodec[], payload: Payload): Promise<unknown> {
  let payloads = [payload];
  for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
  const [decoded] = payloads;
  if (!decoded) throw new Error('a codec returned no payload');
  return defaultPayloadConverter.fromPayload(decoded);
}

/** The identity of a `runTool` call from its scheduled event, or undefined for other events. */
export async function callKey(
  codecs: PayloadCodec[],
  event: temporal.api.history.v1.IHistoryEvent,
): Promise<string | undefined> {
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled?.activityType?.name !== 'runTool') return undefined;
  const payload = scheduled.input?.payloads?.[0];
  if (!payload) return undefined;
  const parsed = toolInput.safeParse(await decodePayload(codecs, payload));
  if (!parsed.success) throw new Error(`a runTool input that is not { name, arguments }: ${parsed.error.message}`);
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

/** Whether a completed `runTool` activity's result says the tool did its work (`ok: true`). */
async function succeededRun(
  codecs: PayloadCodec[],
  done: temporal.api.history.v1.IActivityTaskCompletedEventAttributes,
): Promise<boolean> {
  const payload = done.result?.payloads?.[0];
  if (!payload) return false;
  const outcome = toolOutcome.safeParse(await decodePayload(codecs, payload));
  return outcome.success && outcome.data.ok;
}

/** What one step's histories say about its tool runs. */
export async function stepToolRuns(
  codecs: PayloadCodec[],
  stepId: string,
  histories: temporal.api.history.v1.IHistory[],
): Promise<RepeatedCall | undefined> {
  const counts = new Map<string, number>();
  let completed = 0;
  let succeeded = 0;
  for (const history of histories) {
    const toolRuns = new Set<string>();
    for (const event of history.events ?? []) {
      const key = await callKey(codecs, event);
      if (key !== undefined) {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        toolRuns.add(String(event.eventId));
      }
      const done = event.activityTaskCompletedEventAttributes;
      if (done && toolRuns.has(String(done.scheduledEventId))) {
        completed += 1;
        if (await succeededRun(codecs, done)) succeeded += 1;
      }
    }
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  return top ? { stepId, call: top[0].slice(0, 120), runs: top[1], completed, succeeded } : undefined;
}

/** Whether reading a history failed because the workflow does not exist (as the SDK or gRPC says it). */
function notFound(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  const grpc = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(grpc) && grpc.code === status.NOT_FOUND;
}

/** For each step of agent `agentId` that ran a tool, its most-repeated identical call and its completed runs. */
export async function repeatedCalls(
  client: Client,
  codecs: PayloadCodec[],
  agentId: string,
  stepIds: string[],
): Promise<RepeatedCall[]> {
  const out: RepeatedCall[] = [];
  for (const stepId of stepIds) {
    // A step that never started has no workflow: nothing ran. Any other failure is the run's.
    const histories = await runHistories(client, stepWorkflowId(agentId, stepId)).catch((err: unknown) => {
      if (notFound(err)) return [];
      throw err;
    });
    const runs = await stepToolRuns(codecs, stepId, histories);
    if (runs) out.push(runs);
  }
  return out;
}
