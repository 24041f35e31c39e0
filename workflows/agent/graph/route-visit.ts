/**
 * The `route` model call that decides a graph visit's `llm` edges: the router sees the visit's
 * result and the candidate edges in order and answers `{ to, reason }` (recorded as the activity
 * result, so a replay takes the same edge). A reply that is not JSON, breaks the schema or names
 * no candidate gets a correction naming what is wrong; after three bad replies the agent fails
 * `ROUTE_INVALID`. Its usage counts against the agent's budget like any call.
 */
import { stageModel } from '../../model/llm/model-stages';
import { llmCall } from '../../runtime/activity-proxies';
import { workflowFailure } from '../../contract/failures';
import type { IndexedEdge } from '../../model/graph/graph-exits';
import type { GraphNode } from '../../model/graph/graph-schema';
import type { WalkVisit } from '../../model/graph/graph-walk';
import {
  checkRouteReply,
  routerSystemPrompt,
  routeCorrectionMessage,
  routeTaskMessage,
  type RouteReply,
} from '../../model/graph/route-reply';
import type { LlmMessage } from '../../model/llm/llm-types';
import type { AgentRun } from '../agent-run';
import { noteModel, noteStreaming } from '../../model/agent/agent-state';

/** Bad router replies in a row before the agent fails. */
export const MAX_BAD_ROUTES = 3;

/** The edge a finished visit takes among `candidates`, as the router decides it. */
export async function routeVisit(
  run: AgentRun,
  visit: WalkVisit,
  node: GraphNode,
  done: { result: string; output?: unknown },
  candidates: IndexedEdge[],
): Promise<RouteReply> {
  const messages: LlmMessage[] = [
    { role: 'system', content: routerSystemPrompt(run.prompts) },
    { role: 'user', content: routeTaskMessage(visit.node, done.result, done.output, candidates) },
  ];
  const model = node.model ?? stageModel(run.settings.model, run.settings.modelStages, 'route');
  for (let strikes = 1; ; strikes++) {
    // Paused or over budget: no new model call (no await at all when free).
    if (run.hold.held()) await run.hold.whenFree();
    const reply = await llmCall(`${visit.stepId} · route`, {
      purpose: 'route',
      ownerId: run.agentId,
      stepId: visit.stepId,
      messages,
      json: true,
      schema: 'route',
      ...(model ? { model } : {}),
    });
    run.meter.add(reply.usage);
    noteModel(run.state, reply.model);
    noteStreaming(run.state, reply.streamed);
    const checked = checkRouteReply(reply.content, candidates);
    if (checked.ok) return checked.reply;
    const problems = checked.errors.join('; ');
    run.event({
      type: 'llm.notice',
      stepId: visit.stepId,
      message: `route ${visit.stepId}: reply ${strikes} refused: ${problems}`,
    });
    if (strikes >= MAX_BAD_ROUTES)
      throw workflowFailure(
        'ROUTE_INVALID',
        `the router gave ${MAX_BAD_ROUTES} unusable replies leaving ${visit.stepId}: ${problems}`,
      );
    messages.push(
      { role: 'assistant', content: reply.content ?? '' },
      { role: 'user', content: routeCorrectionMessage(checked.errors) },
    );
  }
}
