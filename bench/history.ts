/**
 * Benchmark 4, history growth: one step making R ReAct rounds (R - 1 `lookup` tool calls, then
 * finish_step) at 0 ms latency; the events and bytes of the step child's history over all its
 * runs (it continues as new when the server suggests), per round, the largest run, and the
 * largest single event (which bounds the largest payload).
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { lookupTool } from '../test/harness/lookup-tool';
import { agentScript, fixed, ms, planOf, planStep, since, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const { HistoryEvent } = temporal.api.history.v1;
const NAME = '4. History';
const ROUNDS = [1, 10, 100, 500];

interface Growth {
  events: number;
  bytes: number;
  runs: number;
  /** Events and bytes of the longest run. */
  largestRun: { events: number; bytes: number };
  /** Bytes added per round between the first and the last model call (R > 1). */
  marginalBytes?: number;
  largestEvent: number;
  largestType: string;
  suggestContinueAsNew: boolean;
}

/** Every run of a workflow, first to last, following its continue-as-new chain. */
async function runHistories(client: Client, workflowId: string): Promise<temporal.api.history.v1.IHistory[]> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  const first = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  const runs: temporal.api.history.v1.IHistory[] = [];
  for (let runId = first ?? undefined; runId;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.push(history);
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return runs;
}

function measure(histories: temporal.api.history.v1.IHistory[]): Growth {
  const events = histories.flatMap((h) => h.events ?? []);
  const largestRun = { events: 0, bytes: 0 };
  for (const history of histories) {
    const runEvents = history.events ?? [];
    const runBytes = runEvents.reduce((sum, e) => sum + HistoryEvent.encode(e).finish().length, 0);
    if (runBytes > largestRun.bytes) Object.assign(largestRun, { events: runEvents.length, bytes: runBytes });
  }
  let bytes = 0;
  let largestEvent = 0;
  let largestType = '';
  let suggestContinueAsNew = false;
  const callStarts: number[] = [];
  for (const event of events) {
    const size = HistoryEvent.encode(event).finish().length;
    bytes += size;
    if (size > largestEvent) {
      largestEvent = size;
      largestType = temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? String(event.eventType);
    }
    if (event.workflowTaskStartedEventAttributes?.suggestContinueAsNew) suggestContinueAsNew = true;
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm') callStarts.push(bytes);
  }
  const first = callStarts[0];
  const last = callStarts[callStarts.length - 1];
  const marginalBytes =
    callStarts.length > 1 && first !== undefined && last !== undefined
      ? (last - first) / (callStarts.length - 1)
      : undefined;
  return {
    events: events.length,
    bytes,
    runs: histories.length,
    largestRun,
    marginalBytes,
    largestEvent,
    largestType,
    suggestContinueAsNew,
  };
}

export async function historyGrowth(env: BenchEnv, report: Report): Promise<void> {
  const lookup = lookupTool();
  const plan = planOf([planStep('s1')]);
  let rounds = 1;
  const respond = agentScript(plan, () => rounds);
  await withCairn(env, { latencyMs: 0, respond, tools: [lookup.tool] }, async ({ agents, client }) => {
    for (const r of ROUNDS) {
      rounds = r;
      const start = performance.now();
      const id = await agents.start({ task: `one step of ${r} rounds`, limits: { maxStepRounds: r } });
      let outcome: string;
      try {
        const result = await agents.result(id);
        outcome = result.status;
      } catch (err) {
        outcome = `failed: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`;
      }
      const elapsed = since(start);
      const g = measure(await runHistories(client, `${id}/step-s1`));
      const label = `R = ${r}`;
      report.add({
        benchmark: NAME,
        figure: `${label}: step history events / bytes (all runs)`,
        measured: `${g.events} / ${g.bytes}`,
      });
      report.add({
        benchmark: NAME,
        figure: `${label}: runs (continue-as-new) / largest run events / bytes`,
        measured: `${g.runs} / ${g.largestRun.events} / ${g.largestRun.bytes}`,
      });
      report.add({
        benchmark: NAME,
        figure: `${label}: events / bytes per round`,
        measured: `${fixed(g.events / r, 1)} / ${fixed(g.bytes / r, 0)}`,
      });
      if (g.marginalBytes !== undefined) {
        report.add({
          benchmark: NAME,
          figure: `${label}: bytes added per round (first → last model call)`,
          measured: fixed(g.marginalBytes, 0),
          target: 'flat',
        });
      }
      report.add({
        benchmark: NAME,
        figure: `${label}: largest single event`,
        measured: `${g.largestEvent} B (${g.largestType})`,
      });
      report.note(
        `${NAME} ${label}: agent ${outcome} in ${ms(elapsed)}; the step ran in ${g.runs} run(s)` +
          (g.suggestContinueAsNew ? ' (the server suggested continue-as-new in the last one).' : '.'),
      );
    }
  });
  report.note(
    `${NAME}: a round is one model call; the step's rounds are R - 1 \`lookup\` registry-tool calls and a ` +
      `finish_step. Bytes are protobuf-encoded history events of the step child workflow \`<agent id>/step-s1\`, ` +
      `summed over its runs (a run continues as new when the server suggests it, by default at 4,096 events; ` +
      `the new run's first event carries the conversation so far). A conversation of up to 4 KB travels inline ` +
      `(cheaper than the query that reads longer ones), so the first rounds add more bytes than later ones. ` +
      `"Flat" is judged by comparing the bytes added per round across R; the largest event bounds the largest payload.`,
  );
}
