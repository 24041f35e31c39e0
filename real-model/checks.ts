/**
 * What the real-model suite judges: control, not answers. For each agent, the violations of the
 * contract a weak real model must not break:
 * - it ends within the time limit, completed, or failed with one of Cairn's error codes and an
 *   explanation on its timeline;
 * - every model call carries a `max_tokens` (its purpose's budget) and no reply is longer;
 * - no context overflow (a server 400 saying so, or LLM_CONTEXT_EXCEEDED) and no LLM_REJECTED;
 * - no approval digest is put to the person twice in one step;
 * - no step runs the same tool call more often than the identical-call limit;
 * - every conversation sent to the model is clean by the protocol (real-model/conversation-check.ts);
 * - a planning agent gets a valid plan and starts its steps (a step that started and failed
 *   counts here; whether any step, tool run or agent completed is evidence.ts's question).
 * Whether the run exercised what these checks judge is evidence.ts's question.
 */
import { agentInputSchema } from '../workflows/model/agent/agent-input';
import { isErrorCode } from '../workflows/base/error-codes';
import { plans, type AgentCase } from './agents';
import type { Exchange } from './recording-proxy';
import type { AgentRun } from './stand-in';
import type { RepeatedCall } from './tool-runs';

/**
 * How long an agent may take, start to end: a bound that tells a hung agent from a slow model.
 * Five agents share a 270M model on two cores, which serves 2–6 reply tokens per second per call
 * on a slow day: a planning agent then took up to 681 s (11.4 minutes) in three runs (2026-11-28).
 */
export const AGENT_TIME_LIMIT_MS = 15 * 60_000;

/**
 * How often one step may run the same call when Cairn's agent settings name no limit: the
 * issue's loop-guard contract (`limits.maxIdenticalCalls`, default 3). Once the agent input has
 * that limit, the agent's own value is used.
 */
export const DEFAULT_IDENTICAL_CALL_LIMIT = 3;

/** The identical-call limit in force for `agent`: its settings' `maxIdenticalCalls`, if Cairn has one. */
export function identicalCallLimit(agent: AgentCase): number {
  const limits: Record<string, unknown> = agentInputSchema.parse(agent.input).limits;
  const own = limits.maxIdenticalCalls;
  return typeof own === 'number' ? own : DEFAULT_IDENTICAL_CALL_LIMIT;
}

/** Said by llama-server (and most OpenAI-compatible servers) when the prompt does not fit. */
const CONTEXT_OVERFLOW = /context (size|length|window)|exceeds the available context/i;

/** One broken rule: which check, and what was seen. */
export interface Violation {
  check: string;
  detail: string;
}

/** Everything known about one agent's run. */
export interface AgentEvidence {
  agent: AgentCase;
  run: AgentRun;
  /** The model calls made on its behalf (its own and its steps'), as the proxy saw them. */
  exchanges: Exchange[];
  repeated: RepeatedCall[];
  /** Text-bearing deltas a live viewer of the agent (a LiveHub subscriber, as a web server runs) received. */
  deltas: number;
}

function ending({ run }: AgentEvidence): Violation[] {
  if (run.outcome === 'timed out') {
    return [
      {
        check: 'ends in time',
        detail: `still ${run.state?.phase ?? '?'} after ${AGENT_TIME_LIMIT_MS / 60_000} min${run.message ? ` (${run.message})` : ''}`,
      },
    ];
  }
  if (run.outcome !== 'failed') return [];
  const out: Violation[] = [];
  if (!run.code || !isErrorCode(run.code))
    out.push({ check: 'specific code', detail: `failed with code ${run.code ?? 'none'}` });
  const finished = run.state?.events.find((e) => e.type === 'agent.finished');
  if (!finished || finished.message.replace(/^failed:?\s*/, '').trim().length < 10) {
    out.push({ check: 'explained', detail: 'no explanation of the failure on the timeline' });
  }
  return out;
}

function bounded({ exchanges }: AgentEvidence): Violation[] {
  const out: Violation[] = [];
  const unbounded = exchanges.filter((e) => e.maxTokens === undefined);
  if (unbounded.length > 0) {
    const purposes = [...new Set(unbounded.map((e) => e.purpose ?? '?'))].join(', ');
    out.push({ check: 'max_tokens sent', detail: `${unbounded.length} calls without max_tokens (${purposes})` });
  }
  for (const e of exchanges) {
    if (e.maxTokens !== undefined && (e.completionTokens ?? 0) > e.maxTokens) {
      out.push({
        check: 'reply within max_tokens',
        detail: `${e.purpose} reply of ${e.completionTokens} > ${e.maxTokens}`,
      });
    }
  }
  return out;
}

function noOverflowOrRejection({ run, exchanges }: AgentEvidence): Violation[] {
  const out: Violation[] = [];
  const overflows = exchanges.filter((e) => e.status >= 400 && CONTEXT_OVERFLOW.test(e.error ?? ''));
  if (overflows.length > 0)
    out.push({ check: 'no context overflow', detail: `${overflows.length} calls over the context` });
  const texts = [run.code, run.message, ...(run.state?.steps.map((s) => s.error) ?? [])].filter(Boolean).join('\n');
  if (texts.includes('LLM_CONTEXT_EXCEEDED'))
    out.push({ check: 'no context overflow', detail: 'LLM_CONTEXT_EXCEEDED' });
  if (texts.includes('LLM_REJECTED')) out.push({ check: 'no LLM_REJECTED', detail: firstLine(texts, 'LLM_REJECTED') });
  return out;
}

function approvalsOnce({ run }: AgentEvidence): Violation[] {
  const seen = new Map<string, number>();
  for (const a of run.approvals) {
    const key = `${a.stepId ?? '(agent)'} ${a.digest}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen]
    .filter(([, n]) => n > 1)
    .map(([key, n]) => ({ check: 'digest asked once', detail: `${key.slice(0, 60)} asked ${n} times` }));
}

function identicalCalls({ agent, repeated }: AgentEvidence): Violation[] {
  const limit = identicalCallLimit(agent);
  return repeated
    .filter((r) => r.runs > limit)
    .map((r) => ({
      check: 'identical-call limit',
      detail: `step ${r.stepId} ran ${r.call} ${r.runs} times (limit ${limit})`,
    }));
}

function cleanConversations({ exchanges }: AgentEvidence): Violation[] {
  return exchanges.flatMap((e) =>
    e.conversationFaults.map((fault) => ({ check: 'clean conversation', detail: `${e.purpose ?? e.path}: ${fault}` })),
  );
}

function planned({ agent, run }: AgentEvidence): Violation[] {
  if (!plans(agent)) return [];
  const out: Violation[] = [];
  if (!run.state?.plan) out.push({ check: 'valid plan', detail: `no plan${run.code ? ` (${run.code})` : ''}` });
  const started = run.state?.steps.filter((s) => s.status !== 'pending' && s.status !== 'skipped').length ?? 0;
  if (started === 0) out.push({ check: 'steps started', detail: 'no step started' });
  return out;
}

function firstLine(text: string, containing: string): string {
  return (text.split('\n').find((l) => l.includes(containing)) ?? containing).slice(0, 160);
}

/** Every violation of `evidence`'s agent. */
export function violations(evidence: AgentEvidence): Violation[] {
  return [ending, bounded, noOverflowOrRejection, approvalsOnce, identicalCalls, cleanConversations, planned].flatMap(
    (c) => c(evidence),
  );
}
