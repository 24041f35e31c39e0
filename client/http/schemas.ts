/**
 * The zod schemas of the HTTP API (DESIGN §5 "Shapes"): they validate requests and, through
 * createRoute, are the OpenAPI document — one description, never written twice. The agent
 * input is the workflow's own schema; response shapes mirror the workflow's state types.
 */
import { z } from '@hono/zod-openapi';
import { AGENT_PHASES } from '../../workflows/agent/agent-state';
import { agentInputSchema } from '../../workflows/agent/agent-input';

const PHASES = AGENT_PHASES;

/** `{ error: { code, message, field? } }`, the body of every failure. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'NOT_FOUND' }),
      message: z.string(),
      field: z.string().optional(),
    }),
  })
  .openapi('Error');

/**
 * The agent input (DESIGN §5 "Workflow input"), the workflow's own schema. It may be built
 * before zod gains `.openapi()`, so it is named through zod's own metadata, which the
 * generator reads as well.
 */
export const AgentInputBody = agentInputSchema.meta({ id: 'AgentInput' });

export const Started = z.object({ id: z.string() }).openapi('AgentStarted');

export const AgentIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(400)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'agent-research-x-1234abcd' }),
});

export const ListQuery = z.object({
  phase: z.enum(PHASES).optional(),
  awaitingInput: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const AgentSummary = z
  .object({
    id: z.string(),
    task: z.string(),
    phase: z.union([z.enum(PHASES), z.literal('unknown')]),
    awaitingInput: z.boolean(),
    status: z.string(),
    startedAt: z.string().optional(),
    closedAt: z.string().optional(),
  })
  .openapi('AgentSummary');

export const AgentList = z.object({ agents: z.array(AgentSummary) }).openapi('AgentList');

/** A non-negative integer cursor given as a query or header string. */
const cursor = z.coerce.number().int().min(0);

export const StateQuery = z.object({ afterSeq: cursor.optional() });

const Usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });

const AgentEvent = z
  .object({
    seq: z.number(),
    at: z.number(),
    type: z.string(),
    message: z.string(),
    stepId: z.string().optional(),
    interactionId: z.string().optional(),
  })
  .openapi('AgentEvent');

const Interaction = z
  .looseObject({
    id: z.string(),
    kind: z.string(),
    status: z.enum(['open', 'answered', 'expired']),
    stepId: z.string().optional(),
    prompt: z.string(),
    createdAt: z.number(),
    expiresAt: z.number().optional(),
  })
  .openapi('Interaction');

const StepRun = z.looseObject({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  result: z.string().optional(),
  error: z.string().optional(),
  usage: Usage,
});

export const AgentStateBody = z
  .looseObject({
    phase: z.enum(PHASES),
    task: z.string(),
    plan: z.looseObject({ task: z.string(), language: z.string(), steps: z.array(z.looseObject({})) }).optional(),
    revision: z.number(),
    steps: z.array(StepRun),
    interactions: z.array(Interaction),
    usage: Usage,
    events: z.array(AgentEvent),
    eventSeq: z.number(),
    result: z.string().optional(),
    error: z.string().optional(),
  })
  .openapi('AgentState');

export const AnswerBody = z
  .object({
    interactionId: z.string().min(1).max(200),
    answer: z.unknown().refine((v) => v !== undefined, 'the answer is missing'),
    by: z.string().min(1).max(200).optional(),
  })
  .openapi('AnswerInput');

export const AnswerAccepted = z.object({ interactionId: z.string(), answer: z.unknown() }).openapi('AnswerAccepted');

export const CancelRequested = z.object({ id: z.string() }).openapi('CancelRequested');

export const EventsQuery = z.object({ lastEventId: cursor.optional() });

export const EventsHeaders = z.object({ 'last-event-id': cursor.optional() });
