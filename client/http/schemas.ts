/**
 * The zod schemas of the HTTP API: they validate requests and, through createRoute, are the
 * OpenAPI document — one description, never written twice. The agent input, the agent state
 * (phase, steps, interactions, answers, events, usage) and the answer payload are the
 * workflows' own schemas (workflows/model/state, workflows/model/interactions), named here for the
 * document; only what is HTTP's own (errors, paths, query strings, the agent list) is defined
 * in this file.
 */
import { z } from '@hono/zod-openapi';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import { agentStartSchema } from '../agents/start-fields';
import {
  answerInputSchema,
  answerSchema,
  interactionSchema,
} from '../../workflows/model/interactions/interaction-schema';
import { agentEventSchema, agentPhaseSchema, agentStateSchema } from '../../workflows/model/state/agent-state-schema';
import { stepRunSchema, tokenUsageSchema } from '../../workflows/model/state/step-run-schema';

/*
 * The workflow schemas are plain zod, built before (and without) `.openapi()`, so they are
 * named through zod's own metadata, which the generator reads too. `.meta()` names a copy and
 * leaves the workflows' instances untouched.
 */
const AgentPhase = agentPhaseSchema.meta({ id: 'AgentPhase' });
const TokenUsage = tokenUsageSchema.meta({ id: 'TokenUsage' });
const Answer = answerSchema.meta({ id: 'Answer' });

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

/** A start's body: the workflow's own input schema less the fields only Cairn sets (agents/start-fields.ts). */
export const AgentInputBody = agentStartSchema.meta({ id: 'AgentInput' });

export const Started = z
  .object({
    id: z.string(),
    /** With files uploaded: the paths the input names them by, relative to the agent's folder (`inputs/<name>`). */
    files: z.array(z.string()).optional(),
  })
  .openapi('AgentStarted');

/**
 * A start with files, as the OpenAPI document describes it: the JSON input as the `input` part,
 * each file as a part with a file name (any field name; `file` by convention). Every field is
 * optional here because the route's form check also sees JSON starts (it finds no form there);
 * the multipart start itself is read in uploads/routes/agent-uploads.ts.
 */
export const UploadForm = z
  .object({
    input: z.string().optional().openapi({ description: 'The agent input as JSON' }),
    file: z
      .array(z.string().openapi({ format: 'binary' }))
      .optional()
      .openapi({ description: 'Files, each stored as inputs/<name>' }),
  })
  .openapi('AgentStartWithFiles');

export const AgentIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(400)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'agent-research-x-1234abcd' }),
});

export const ListQuery = z.object({
  phase: agentPhaseSchema.optional(),
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
    phase: z.union([AgentPhase, z.literal('unknown')]),
    awaitingInput: z.boolean(),
    status: z.string(),
    startedAt: z.string().optional(),
    closedAt: z.string().optional(),
    /** The build id of the Worker Deployment version the agent runs on (absent when unversioned). */
    version: z.string().optional(),
    /** Tokens and cost of the agent tree so far (costUsd null: unknown); absent before any is recorded. */
    spend: z.object({ tokens: z.number().int(), costUsd: z.number().nullable() }).optional(),
    /** The agent definition it was started from (name and version); absent: started without one. */
    definition: z.object({ name: z.string(), version: z.string() }).optional(),
  })
  .openapi('AgentSummary');

export const AgentList = z.object({ agents: z.array(AgentSummary) }).openapi('AgentList');

/** One registered graph: its name, description and the checked graph (defaults filled in). */
const RegisteredGraph = z
  .object({ name: z.string(), description: z.string().optional(), graph: graphSchema.meta({ id: 'Graph' }) })
  .openapi('RegisteredGraph');

/** `GET /api/graphs`: every graph registered with defineGraph, in the module's order. */
export const GraphList = z.object({ graphs: z.array(RegisteredGraph) }).openapi('GraphList');

/** A non-negative integer cursor given as a query or header string. */
const cursor = z.coerce.number().int().min(0);

export const StateQuery = z.object({ afterSeq: cursor.optional() });

/** The workflow's interaction kinds, each with its audit record's answer referring to the named one. */
const interactionVariants = interactionSchema.options.map((variant) => variant.extend({ answer: Answer.optional() }));
type InteractionVariant = (typeof interactionVariants)[number];

/** An interaction of any kind. (`.map` keeps every kind but not the tuple type: hence the cast.) */
const Interaction = z
  .discriminatedUnion('kind', interactionVariants as [InteractionVariant, ...InteractionVariant[]])
  .meta({ id: 'Interaction' });

/**
 * The agent state: the workflow's schema with its parts named, so the document shows a step
 * run, an interaction and an event once each and refers to them.
 */
export const AgentStateBody = agentStateSchema
  .extend({
    phase: AgentPhase,
    steps: z.array(stepRunSchema.extend({ usage: TokenUsage }).meta({ id: 'StepRun' })),
    interactions: z.array(Interaction),
    usage: TokenUsage,
    events: z.array(agentEventSchema.meta({ id: 'AgentEvent' })),
    /** The final answer again, as `cairn run --json` and the workflow's result name it (client/agents/final-answer.ts). */
    answer: z.string().optional(),
    /** The Worker Deployment version the current run is on; absent when unversioned or with afterSeq. */
    version: z
      .object({
        deploymentName: z.string(),
        buildId: z.string(),
        behavior: z.enum(['pinned', 'auto-upgrade']),
      })
      .optional()
      .meta({ id: 'AgentVersion' }),
  })
  .meta({ id: 'AgentState' });

/**
 * The answer payload: the workflow's own schema (the `answer` signal's and update's). The
 * answer must be present here; its shape is checked against the interaction by the workflow,
 * whose message names the broken rule.
 */
export const AnswerBody = answerInputSchema
  // The actor is the server's to set, from the authenticated principal.
  .omit({ actor: true })
  .extend({ answer: z.unknown().refine((v) => v !== undefined, 'the answer is missing') })
  .meta({ id: 'AnswerInput' });

/** An accepted answer, normalised as the audit record keeps it. */
export const AnswerAccepted = z.object({ interactionId: z.string(), answer: Answer }).openapi('AnswerAccepted');

export const CancelRequested = z.object({ id: z.string() }).openapi('CancelRequested');

/** The body of `pause` and `resume` (optional): who, and why — kept on the agent's timeline. */
export const HoldBody = z
  .object({ by: z.string().min(1).max(200).optional(), reason: z.string().max(2000).optional() })
  .openapi('HoldBody');

export const HoldRequested = z.object({ id: z.string() }).openapi('HoldRequested');

export const EventsQuery = z.object({ lastEventId: cursor.optional() });

export const EventsHeaders = z.object({ 'last-event-id': cursor.optional() });
