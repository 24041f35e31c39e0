/**
 * The check that every approval in the tests says why (issue 29, acceptance 6): a step's
 * `tool.approval` carries `why` — the end of the text the model wrote in the same reply before
 * the call — whenever the model wrote any. Run after each test of the agent testbed
 * (agent-testbed.ts): the scripted fake knows what each reply said and which tool calls it made,
 * and each agent's history holds the step → agent `stepInteraction` signals that opened its
 * approvals (request id = the tool call's id), so every approval any test opened is checked,
 * however the test read or answered it (update, HTTP, CLI, page). Read from history, not by
 * query: the test's worker is gone by then.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { stripReasoning } from '../../activities/llm/read-completion';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { WHY_MARKER } from '../../workflows/contract/transcript-bounds';
import { stepInteractionRequestSchema } from '../../workflows/contract/messages';
import type { RecordedRequest, ScriptedLlm } from '../fake-llm/scripted-llm';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** A step reply that wrote text and called tools: where approvals need a `why`. */
interface SpokenReply {
  agentId: string;
  stepId: string;
  text: string;
  callIds: Set<string>;
}

/** An approval a step asked its agent for. */
interface AskedApproval {
  stepId: string;
  requestId: string;
  why?: unknown;
}

/** The step replies of `requests` that had text (reasoning left out, as the worker reads it) and tool calls. */
function spokenReplies(requests: RecordedRequest[]): SpokenReply[] {
  return requests.flatMap((r) => {
    const agentId = r.headers['x-cairn-agent'];
    const stepId = r.headers['x-cairn-step'];
    const text = stripReasoning(r.replied?.content);
    const calls = r.replied?.toolCalls ?? [];
    if (r.headers['x-cairn-purpose'] !== 'step' || !agentId || !stepId || !text || calls.length === 0) return [];
    return [{ agentId, stepId, text, callIds: new Set(calls.map((c) => c.id)) }];
  });
}

/** Every run's events of workflow `id`, following continue-as-new back to the first run. */
async function allRuns(client: Client, id: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let runId: string | undefined;
  for (let runs = 0; runs < 50; runs++) {
    const history = await client.workflow.getHandle(id, runId).fetchHistory();
    events.push(...(history.events ?? []));
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) break;
  }
  return events;
}

/** The tool approvals the agent's steps asked for; payloads a keyless reader cannot decode are skipped. */
function askedApprovals(events: HistoryEvent[]): AskedApproval[] {
  return events.flatMap((e) => {
    const signal = e.workflowExecutionSignaledEventAttributes;
    const payload = signal?.input?.payloads?.[0];
    if (signal?.signalName !== 'stepInteraction' || !payload) return [];
    try {
      const read = stepInteractionRequestSchema.safeParse(
        defaultPayloadConverter.fromPayload<unknown>(decompressPayload(payload)),
      );
      if (!read.success) return [];
      const { stepId, requestId, spec } = read.data;
      return spec.kind === 'tool.approval' ? [{ stepId, requestId, why: spec.why }] : [];
    } catch {
      return []; // encrypted under a test's own keys
    }
  });
}

/**
 * What is wrong with the approvals opened for calls of replies that wrote text: one without a
 * `why`, or with one that is not the end of that text. Empty when all is well. Also returns how
 * many approvals were checked, so a caller can tell a vacuous pass.
 */
export async function approvalReasonProblems(
  client: Client,
  llm: ScriptedLlm,
): Promise<{ checked: number; problems: string[] }> {
  const spoken = spokenReplies(llm.requests);
  const problems: string[] = [];
  let checked = 0;
  for (const agentId of new Set(spoken.map((s) => s.agentId))) {
    const events = await allRuns(client, agentId).catch(() => []); // never started, or already gone
    for (const approval of askedApprovals(events)) {
      const reply = spoken.find(
        (s) => s.agentId === agentId && s.stepId === approval.stepId && s.callIds.has(approval.requestId),
      );
      if (!reply) continue;
      checked += 1;
      const given = typeof approval.why === 'string' ? approval.why : '';
      const why = given.startsWith(WHY_MARKER) ? given.slice(WHY_MARKER.length) : given;
      if (why.trim() === '' || !reply.text.trim().endsWith(why)) {
        problems.push(
          `${agentId} step ${approval.stepId} call ${approval.requestId}: the model wrote ${JSON.stringify(reply.text.slice(-80))} before the call, ` +
            `but its tool.approval's why is ${JSON.stringify(approval.why)}`,
        );
      }
    }
  }
  return { checked, problems };
}
