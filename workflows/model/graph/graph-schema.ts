/**
 * The agent input's `graph` (agent graphs, not yet wired into the agent): a developer-defined agent shape of
 * named LLM nodes, plain and conditional edges, entry and end nodes and bounds. This file checks
 * the shape only; the rules between nodes and edges (known ids, reachability, joins, exits) are in
 * graph-rules.ts, so every broken rule comes back with its code. Pure: safe in the workflow sandbox.
 */
import { z } from 'zod';
import { modelSettingsSchema } from '../llm/llm-types';
import { stepIdSchema } from '../step-id';

/** Longest node id: its visits are steps `<node>-<n>`, which must stay within a step id's 40 characters. */
export const MAX_NODE_ID_LENGTH = 32;
/** Most nodes of one graph: as many as a plan's steps, so state and payloads stay as small. */
export const MAX_GRAPH_NODES = 50;
/** Most edges of one graph. */
export const MAX_GRAPH_EDGES = 200;
/** Default of `maxIterations`: most visits of any one node. */
export const DEFAULT_MAX_ITERATIONS = 10;
/** Highest `maxIterations` a graph may ask for (a long loop continues as new). */
export const MAX_ITERATIONS_LIMIT = 10_000;

/**
 * A node id: a step id (its first visit's step id is the node id), at most
 * {@link MAX_NODE_ID_LENGTH} characters and not ending in `-<digits>`, which later visits append —
 * so a visit's step id can never be another node's id.
 */
export const nodeIdSchema = stepIdSchema
  .max(MAX_NODE_ID_LENGTH, `must be at most ${MAX_NODE_ID_LENGTH} characters`)
  .refine((id) => !/-\d+$/.test(id), 'must not end in "-<digits>", which visit step ids append');

/** A JSON value, as `equals` compares it with a node's structured output. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
// Named, so a document generator can refer to it instead of recursing.
const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() => jsonValueUnion).meta({ id: 'JsonValue' });
// Built once (not in the getter), so every level of a nested value is checked by the same schema.
const jsonValueUnion: z.ZodType<JsonValue> = z.union([
  z.string().max(2_000),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(jsonValueSchema).max(100),
  z.record(z.string(), jsonValueSchema),
]);

/** A condition decided by the `route` model call: the text the router judges. */
const llmConditionSchema = z.strictObject({ llm: z.string().trim().min(1, 'must not be empty').max(2_000) });

/** A condition over the node's structured output: the value at a dot path (`verdict.approved`) equals `value`. */
const equalsConditionSchema = z.strictObject({
  equals: z.strictObject({
    path: z
      .string()
      .max(200)
      .regex(/^[^.]+(\.[^.]+)*$/, 'must be a dot path like "verdict.approved"'),
    value: jsonValueSchema,
  }),
});

/** An edge's condition: decided by a router model call (`llm`) or read from the output (`equals`). */
export const edgeConditionSchema = z.union([llmConditionSchema, equalsConditionSchema]);

/** One node: an LLM step with its own system prompt, tools and model. */
export const graphNodeSchema = z.strictObject({
  id: nodeIdSchema,
  title: z.string().trim().min(1).max(200).optional(),
  systemPrompt: z.string().trim().min(1, 'must not be empty').max(20_000),
  /** Allow list of tool names; absent means every registered tool. */
  tools: z.array(z.string().min(1)).max(100).optional(),
  model: modelSettingsSchema.optional(),
  /** JSON Schema of the structured output the node's `finish_step` carries; `equals` edges read it. */
  output: z.record(z.string(), z.unknown()).optional(),
  /** `any` (default): a visit on the first incoming edge fired; `all`: once every incoming edge fired. */
  join: z.enum(['all', 'any']).optional(),
});

/** One edge; without `when` it is plain (taken always, or as the fallback of conditional ones). */
export const graphEdgeSchema = z.strictObject({
  from: z.string().min(1).max(MAX_NODE_ID_LENGTH),
  to: z.string().min(1).max(MAX_NODE_ID_LENGTH),
  when: edgeConditionSchema.optional(),
});

const idListSchema = z.array(z.string().min(1).max(MAX_NODE_ID_LENGTH)).max(MAX_GRAPH_NODES);

/** The agent input's `graph`: shape only (the rules between its parts are graph-rules.ts). */
export const graphSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  description: z.string().max(2_000).optional(),
  nodes: z.array(graphNodeSchema).min(1, 'the graph needs at least one node').max(MAX_GRAPH_NODES),
  edges: z.array(graphEdgeSchema).max(MAX_GRAPH_EDGES).default([]),
  entry: idListSchema.min(1, 'the graph needs at least one entry node'),
  end: idListSchema.min(1, 'the graph needs at least one end node'),
  maxIterations: z.number().int().min(1).max(MAX_ITERATIONS_LIMIT).default(DEFAULT_MAX_ITERATIONS),
  timeoutMs: z.number().int().positive().optional(),
});

/** A graph as authors write it (defaults optional). */
export type GraphInput = z.input<typeof graphSchema>;
/** A graph with its defaults filled in: what the rules and the walk read. */
export type Graph = z.output<typeof graphSchema>;
/** One node of a {@link Graph}. */
export type GraphNode = Graph['nodes'][number];
/** One edge of a {@link Graph}. */
export type GraphEdge = Graph['edges'][number];
/** An edge's `when`. */
export type EdgeCondition = z.infer<typeof edgeConditionSchema>;
