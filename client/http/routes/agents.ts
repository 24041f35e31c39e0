/**
 * The agent routes (docs/contracts.md#http-api): start, list, state, answer and cancel. Each handler is a thin
 * call into the client library; its coded ClientErrors become HTTP statuses in errors.ts.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AgentsPort } from '../agents-port';
import {
  AgentIdParams,
  AgentInputBody,
  AgentList,
  AgentStateBody,
  AnswerAccepted,
  AnswerBody,
  CancelRequested,
  ErrorBody,
  ListQuery,
  Started,
  StateQuery,
} from '../schemas';

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const failure = (description: string) => ({ description, content: json(ErrorBody) });

const startRoute = createRoute({
  method: 'post',
  path: '/api/agents',
  summary: 'Start an agent',
  request: { body: { required: true, content: json(AgentInputBody) } },
  responses: {
    201: { description: 'Started; the id is the workflow id', content: json(Started) },
    400: failure('Invalid input (INVALID_INPUT, with the field)'),
    409: failure('An agent with this id exists (CONFLICT)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/agents',
  summary: 'List agents, newest first, by phase and/or whether they wait for input',
  request: { query: ListQuery },
  responses: {
    200: { description: 'The agents', content: json(AgentList) },
    400: failure('Invalid filter (INVALID_INPUT)'),
  },
});

const stateRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}',
  summary: "An agent's state; with afterSeq only newer timeline events",
  request: { params: AgentIdParams, query: StateQuery },
  responses: {
    200: { description: 'The state', content: json(AgentStateBody) },
    400: failure('Invalid cursor (INVALID_INPUT)'),
    404: failure('No such agent (NOT_FOUND)'),
  },
});

const answerRoute = createRoute({
  method: 'post',
  path: '/api/agents/{id}/answers',
  summary: 'Answer an open interaction; the verdict comes back at once',
  request: { params: AgentIdParams, body: { required: true, content: json(AnswerBody) } },
  responses: {
    200: { description: 'Accepted; the normalised answer', content: json(AnswerAccepted) },
    400: failure('Invalid body (INVALID_INPUT) or rejected answer (INVALID_ANSWER)'),
    404: failure('No such agent (NOT_FOUND)'),
    409: failure('The interaction is closed or unknown (NOT_OPEN)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
  },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/api/agents/{id}/cancel',
  summary: 'Request cancellation; running steps stop, finished work is kept',
  request: { params: AgentIdParams },
  responses: {
    202: { description: 'Cancellation requested', content: json(CancelRequested) },
    404: failure('No such agent (NOT_FOUND)'),
  },
});

/** Registers the agent routes on `app`. */
export function registerAgentRoutes(app: OpenAPIHono, agents: AgentsPort): void {
  app.openapi(startRoute, async (c) => c.json({ id: await agents.start(c.req.valid('json')) }, 201));
  app.openapi(listRoute, async (c) => c.json({ agents: await agents.list(c.req.valid('query')) }, 200));
  app.openapi(stateRoute, async (c) => {
    const { afterSeq } = c.req.valid('query');
    return c.json(await agents.state(c.req.valid('param').id, afterSeq), 200);
  });
  app.openapi(answerRoute, async (c) => {
    const { interactionId, answer, by } = c.req.valid('json');
    const accepted = await agents.answer(c.req.valid('param').id, {
      interactionId,
      answer,
      ...(by !== undefined ? { by } : {}),
    });
    // By update (the default) the verdict always comes back; undefined would mean a signal.
    if (!accepted) throw new Error('the answer update returned no verdict');
    return c.json(accepted, 200);
  });
  app.openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid('param');
    await agents.cancel(id);
    return c.json({ id }, 202);
  });
}
