/**
 * Benchmark 4, history growth: one step making R ReAct rounds (R - 1 `lookup` tool calls, then
 * finish_step) at 0 ms latency; the events and bytes of the step child's history over all its
 * runs (it continues as new when the server suggests), per round, the largest run, and the
 * largest single event (which bounds the largest payload). "Flat" is judged, where there are
 * enough rounds, from the bytes each round adds once the conversation is lent by reference.
 */
import { runHistories } from '../testkit/run-histories';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { stepWorkflowId } from '../workflows/base/ids';
import { lookupTool } from '../testkit/lookup-tool';
import { agentScript, fixed, ms, planOf, planStep, since, withCairn, type BenchEnv } from './common';
import { FLAT_TOLERANCE, FLAT_WINDOW, judgeFlat } from './flat-verdict';
import type { Report } from './report';
import { decompressPayload } from '../temporal/payloads/compression-codec';

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
  /** Model calls whose input carried the conversation inline. */
  inlineCalls: number;
  /** Bytes each round added once the conversation was lent by reference, within a run, in order. */
  lentRounds: number[];
  largestEvent: number;
  largestType: string;
  suggestContinueAsNew: boolean;
}

type IHistoryEvent = temporal.api.history.v1.IHistoryEvent;

const eventBytes = (event: IHistoryEvent): number => HistoryEvent.encode(event).finish().length;
const isModelCall = (event: IHistoryEvent): boolean =>
  event.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm';

/** A `callLlm` input that lends the conversation by reference instead of carrying it inline. */
const lentInput = z.object({ conversation: z.object({ key: z.string(), length: z.number() }) });

/** Whether a model call's input (one JSON payload) lends the conversation by reference. */
function lendsConversation(event: IHistoryEvent): boolean {
  const payload = event.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
  const data = payload ? decompressPayload(payload).data : undefined;
  if (!data) return false;
  try {
    return lentInput.safeParse(JSON.parse(Buffer.from(data).toString('utf8'))).success;
  } catch {
    return false;
  }
}

/**
 * The bytes from each model call to the next one in the same run, for calls that lend the
 * conversation (a round that ends in a continue-as-new has no next call there and no figure),
 * and how many calls carried it inline.
 */
function lentRounds(histories: temporal.api.history.v1.IHistory[]): { inlineCalls: number; rounds: number[] } {
  const rounds: number[] = [];
  let inlineCalls = 0;
  for (const history of histories) {
    let bytes = 0;
    let previous: { at: number; lent: boolean } | undefined;
    for (const event of history.events ?? []) {
      if (isModelCall(event)) {
        if (previous?.lent) rounds.push(bytes - previous.at);
        previous = { at: bytes, lent: lendsConversation(event) };
        if (!previous.lent) inlineCalls++;
      }
      bytes += eventBytes(event);
    }
  }
  return { inlineCalls, rounds };
}

function measure(histories: temporal.api.history.v1.IHistory[]): Growth {
  const events = histories.flatMap((h) => h.events ?? []);
  const largestRun = { events: 0, bytes: 0 };
  for (const history of histories) {
    const runEvents = history.events ?? [];
    const runBytes = runEvents.reduce((sum, e) => sum + eventBytes(e), 0);
    if (runBytes > largestRun.bytes) Object.assign(largestRun, { events: runEvents.length, bytes: runBytes });
  }
  let bytes = 0;
  let largestEvent = 0;
  let largestType = '';
  let suggestContinueAsNew = false;
  const callStarts: number[] = [];
  for (const event of events) {
    const size = eventBytes(event);
    bytes += size;
    if (size > largestEvent) {
      largestEvent = size;
      largestType = temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? String(event.eventType);
    }
    if (event.workflowTaskStartedEventAttributes?.suggestContinueAsNew) suggestContinueAsNew = true;
    if (isModelCall(event)) callStarts.push(bytes);
  }
  const first = callStarts[0];
  const last = callStarts[callStarts.length - 1];
  const marginalBytes =
    callStarts.length > 1 && first !== undefined && last !== undefined
      ? (last - first) / (callStarts.length - 1)
      : undefined;
  const { inlineCalls, rounds } = lentRounds(histories);
  return {
    events: events.length,
    bytes,
    runs: histories.length,
    largestRun,
    marginalBytes,
    inlineCalls,
    lentRounds: rounds,
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
      if (outcome !== 'completed') {
        report.error(NAME, `R = ${r}: the agent ended ${outcome}, so its history measures nothing`);
        continue;
      }
      const g = measure(await runHistories(client, stepWorkflowId(id, 's1')));
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
        });
      }
      reportFlat(report, label, g);
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
  await compressionFigure(env, report);
  report.note(
    `${NAME}: a round is one model call; the step's rounds are R - 1 \`lookup\` registry-tool calls and a ` +
      `finish_step. Bytes are protobuf-encoded history events of the step child workflow \`<agent id>/step-s1\`, ` +
      `summed over its runs (a run continues as new when the server suggests it, by default at 4,096 events; ` +
      `the new run's first event carries the conversation so far). A conversation of up to 4 KB travels inline ` +
      `(cheaper than the query that reads longer ones), so the first rounds add more bytes than later ones. ` +
      `"Flat" is judged where a step has at least ${2 * FLAT_WINDOW} rounds past the inline phase (the model ` +
      `call's input lends the conversation by reference): the mean bytes a round adds over the last ` +
      `${FLAT_WINDOW} rounds must lie within ±${FLAT_TOLERANCE * 100} % of the mean over the first ` +
      `${FLAT_WINDOW} rounds past the inline phase; a round counts from one model call to the next in the ` +
      `same run, so the carried conversation in a continued run's first event is not a round's (it shows in the ` +
      `largest event). The largest event bounds the largest payload.`,
  );
}

/** The judged "flat" row, where the step made enough rounds past the inline phase. */
function reportFlat(report: Report, label: string, g: Growth): void {
  const flat = judgeFlat(g.lentRounds);
  report.add({
    benchmark: NAME,
    figure: `${label}: model calls inline / rounds past the inline phase`,
    measured: `${g.inlineCalls} / ${g.lentRounds.length}`,
  });
  if (flat === undefined) return;
  report.add({
    benchmark: NAME,
    figure: `${label}: bytes per round past the inline phase, first ${FLAT_WINDOW} → last ${FLAT_WINDOW} rounds`,
    measured: `${fixed(flat.first, 0)} → ${fixed(flat.last, 0)} (× ${fixed(flat.ratio)})`,
    target: `flat (× 1 ± ${FLAT_TOLERANCE})`,
    met: flat.met,
  });
}

/** Rounds of the compression comparison: the long conversation the history benchmark ends with. */
const COMPRESSION_ROUNDS = 500;

/** The step history bytes of one agent of COMPRESSION_ROUNDS rounds with compression `on` or `off`. */
async function historyBytes(env: BenchEnv, compression: 'on' | 'off'): Promise<number | string> {
  const lookup = lookupTool();
  const respond = agentScript(planOf([planStep('s1')]), () => COMPRESSION_ROUNDS);
  const options = { latencyMs: 0, respond, tools: [lookup.tool], env: { CAIRN_COMPRESSION: compression } };
  return withCairn(env, options, async ({ agents, client }) => {
    const id = await agents.start({
      task: `one step of ${COMPRESSION_ROUNDS} rounds, compression ${compression}`,
      limits: { maxStepRounds: COMPRESSION_ROUNDS },
    });
    const result = await agents.result(id);
    if (result.status !== 'completed') return `the agent ended ${result.status}`;
    return measure(await runHistories(client, stepWorkflowId(id, 's1'))).bytes;
  });
}

/** History bytes with payload compression on and off (temporal/payloads/compression-codec.ts). */
async function compressionFigure(env: BenchEnv, report: Report): Promise<void> {
  const on = await historyBytes(env, 'on');
  const off = await historyBytes(env, 'off');
  if (typeof on === 'string' || typeof off === 'string') {
    report.error(NAME, `compression comparison: ${typeof on === 'string' ? on : String(off)}`);
    return;
  }
  report.add({
    benchmark: NAME,
    figure: `R = ${COMPRESSION_ROUNDS}: step history bytes, payload compression on / off`,
    measured: `${on} / ${off} (${fixed((100 * (off - on)) / off, 0)} % smaller)`,
  });
}
