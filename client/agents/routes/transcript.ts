/**
 * `GET /api/agents/:id/steps/:stepId/transcript` (docs/contracts.md#step-transcripts): what a
 * step's model said each round — text, a reasoning summary, tool calls with their cut results —
 * as the step workflow keeps it (at most 64 KiB, oldest rounds dropped and counted). Read by the
 * step's `transcript` query, so a finished step answers too while Temporal retains it.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { stepTranscriptSchema } from '../../../workflows/contract/step-transcript';
import type { AgentsPort } from '../agents-port';
import { AgentIdParams, ErrorBody } from '../../http/schemas';

/** The transcript as the step's query returns it: the workflow's own schema, named for the document. */
const Transcript = stepTranscriptSchema.meta({ id: 'StepTranscript' });

const TranscriptParams = AgentIdParams.extend({
  stepId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'stepId', in: 'path' }, example: 's2' }),
});

const transcriptRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/steps/{stepId}/transcript',
  summary: "What a step's model said each round: text, reasoning summary, tool calls with their cut results",
  request: { params: TranscriptParams },
  responses: {
    200: {
      description: 'The rounds kept, oldest first; droppedRounds counts older ones left out to stay within 64 KiB',
      content: { 'application/json': { schema: Transcript } },
    },
    404: {
      description: 'No such agent (NOT_FOUND), or no such step of it (NOT_FOUND, field stepId)',
      content: { 'application/json': { schema: ErrorBody } },
    },
    503: {
      description: 'No worker answered in time (AGENT_UNAVAILABLE)',
      content: { 'application/json': { schema: ErrorBody } },
    },
  },
});

/** Registers the transcript route. */
export function registerTranscriptRoute(app: OpenAPIHono, agents: AgentsPort): void {
  app.openapi(transcriptRoute, async (c) => {
    const { id, stepId } = c.req.valid('param');
    return c.json(await agents.transcript(id, stepId), 200);
  });
}
