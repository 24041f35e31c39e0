/**
 * The agent routes (docs/contracts.md#http-api): start, list, state, answer, cancel, pause and resume. Each handler is a thin
 * call into the client library; its coded ClientErrors become HTTP statuses in errors.ts.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AgentsPort } from '../agents-port';
import type { Principal } from '../../http/auth/principal';
import { ApiFailure } from '../../http/errors';
import {
  AgentIdParams,
  AgentInputBody,
  AgentList,
  AgentStateBody,
  AnswerAccepted,
  AnswerBody,
  CancelRequested,
  ErrorBody,
  HoldBody,
  HoldRequested,
  ListQuery,
  Started,
  StateQuery,
  UploadForm,
} from '../../http/schemas';
import { withAnswer } from '../final-answer';
import { completeAnswer, mayLackDigest } from '../complete-answer';
import { startInput } from '../start-input';
import { refuseForeignFields } from '../start-fields';

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const failure = (description: string) => ({ description, content: json(ErrorBody) });

const startRoute = createRoute({
  method: 'post',
  path: '/api/agents',
  summary: 'Start an agent',
  description:
    "The input as JSON, or as `multipart/form-data` with files: the part `input` is the JSON input, every part with a file name a file stored as `inputs/<name>` in the agent's folder and added to its `files` (answered in agent-uploads.ts).",
  request: {
    body: {
      required: true,
      content: { ...json(AgentInputBody), 'multipart/form-data': { schema: UploadForm } },
    },
  },
  responses: {
    201: { description: 'Started; the id is the workflow id', content: json(Started) },
    400: failure(
      'Invalid input, or a field only Cairn sets (context, thread, nested, sharedWorkspace, principal) or no start takes (INVALID_INPUT, with the field); a file name over 255 bytes (UPLOAD_NAME_TOO_LONG)',
    ),
    409: failure('An agent with this id exists (CONFLICT)'),
    413: failure('Over the body limit (PAYLOAD_TOO_LARGE); with files, over an upload limit (UPLOAD_TOO_LARGE)'),
    415: failure(
      'The body is neither JSON nor a multipart form (UNSUPPORTED_MEDIA_TYPE), or a file type is refused (UPLOAD_TYPE_REFUSED)',
    ),
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
    400: failure(
      'Invalid body (INVALID_INPUT), rejected answer (INVALID_ANSWER), or a `by` not the principal (BY_MISMATCH)',
    ),
    404: failure('No such agent (NOT_FOUND)'),
    409: failure('The interaction is closed or unknown (NOT_OPEN)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
  },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/api/agents/{id}/cancel',
  summary: 'Request cancellation; running steps stop, finished work is kept; the audit names who asked',
  request: { params: AgentIdParams, body: { required: false, content: json(HoldBody) } },
  responses: {
    202: { description: 'Cancellation requested', content: json(CancelRequested) },
    400: failure('Invalid body (INVALID_INPUT), or a `by` not the principal (BY_MISMATCH)'),
    404: failure('No such agent (NOT_FOUND)'),
    409: failure('The agent has ended (AGENT_FINISHED)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
  },
});

/** `pause` or `resume`: an optional `{ by?, reason? }` body, 202 once the signal is sent. */
function holdRoute(action: 'pause' | 'resume') {
  return createRoute({
    method: 'post',
    path: `/api/agents/{id}/${action}`,
    summary:
      action === 'pause'
        ? 'Pause: no new model or tool call starts in the agent tree; open interactions stay answerable'
        : 'Resume a paused agent where it stopped',
    request: { params: AgentIdParams, body: { required: false, content: json(HoldBody) } },
    responses: {
      202: { description: `${action} requested`, content: json(HoldRequested) },
      400: failure('Invalid body (INVALID_INPUT), or a `by` not the principal (BY_MISMATCH)'),
      404: failure('No such agent (NOT_FOUND)'),
      409: failure('The agent has ended (AGENT_FINISHED)'),
      415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
    },
  });
}

/**
 * Who an answer, pause or resume is recorded as: signed in, the principal (a body `by` naming
 * someone else is refused with BY_MISMATCH); without authentication, the body's `by`.
 */
function actingAs(authOn: boolean, principal: Principal, by: string | undefined): string | undefined {
  if (!authOn) return by;
  if (by !== undefined && by !== principal.id) {
    const why = `"by" must be the signed-in principal ${JSON.stringify(principal.id)} or left out`;
    throw new ApiFailure('BY_MISMATCH', why, 'by');
  }
  return principal.id;
}

/** The actor the workflow records: the principal, under the `by` it acts as (only differs without authentication). */
function actorOf(principal: Principal, by: string | undefined): Principal {
  return { ...principal, id: by ?? principal.id, roles: [...principal.roles] };
}

/**
 * Who acts, as the timeline and the audit name them: the signed-in principal; without
 * authentication the body's `by`, else — for the web page — `web` (the page's answers have
 * always been by "web": its pauses, resumes and cancels are by the same name, not "anonymous").
 */
function actorName(authOn: boolean, principal: Principal, by: string | undefined): string | undefined {
  return actingAs(authOn, principal, by) ?? (principal.method === 'web' ? 'web' : undefined);
}

/** A cancel, pause or resume request: `by` as for answers, the reason, and the actor. */
function actedRequest(authOn: boolean, principal: Principal, body: { by?: string; reason?: string } | undefined) {
  const { by: claimed, reason } = body ?? {};
  const by = actorName(authOn, principal, claimed);
  return {
    ...(by !== undefined ? { by } : {}),
    ...(reason !== undefined ? { reason } : {}),
    actor: actorOf(principal, by),
  };
}

/**
 * An approval sent without its digest gets the digest of the interaction it answers, as the CLI
 * fills it in (client/agents/complete-answer.ts): a script need not copy it from the state. Read only
 * when the answer could be one; anything else goes as it came, for the workflow to judge.
 */
async function withDigest(agents: AgentsPort, id: string, interactionId: string, answer: unknown): Promise<unknown> {
  if (!mayLackDigest(answer)) return answer;
  const state = await agents.state(id, Number.MAX_SAFE_INTEGER);
  const interaction = state.interactions.find((i) => i.id === interactionId && i.status === 'open');
  return interaction ? completeAnswer(interaction, answer) : answer;
}

/** Registers the agent routes on `app`. */
export function registerAgentRoutes(app: OpenAPIHono, agents: AgentsPort): void {
  app.openapi(startRoute, async (c) => {
    const body = c.req.valid('json');
    // Typed as either documented body; a form never gets here (agent-uploads.ts answers it).
    if (!('task' in body)) throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'expected a JSON body');
    const sent: unknown = await c.req.json();
    refuseForeignFields(sent);
    const input = startInput(c, body, sent);
    return c.json({ id: await agents.start(input) }, 201);
  });
  app.openapi(listRoute, async (c) => c.json({ agents: await agents.list(c.req.valid('query')) }, 200));
  app.openapi(stateRoute, async (c) => {
    const { afterSeq } = c.req.valid('query');
    const { id } = c.req.valid('param');
    // The version costs a describe call: only the full state carries it, not each poll for news.
    if (afterSeq !== undefined || !agents.version) return c.json(withAnswer(await agents.state(id, afterSeq)), 200);
    const [state, version] = await Promise.all([agents.state(id), agents.version(id)]);
    return c.json({ ...withAnswer(state), ...(version ? { version } : {}) }, 200);
  });
  app.openapi(answerRoute, async (c) => {
    const { interactionId, answer: sent, by } = c.req.valid('json');
    const { id } = c.req.valid('param');
    const principal = c.get('principal');
    const who = actorName(c.get('authOn'), principal, by);
    const actor = actorOf(principal, who);
    const answer = await withDigest(agents, id, interactionId, sent);
    const accepted = await agents.answer(id, {
      interactionId,
      answer,
      ...(who !== undefined ? { by: who } : {}),
      actor,
    });
    // By update (the default) the verdict always comes back; undefined would mean a signal.
    if (!accepted) throw new Error('the answer update returned no verdict');
    return c.json(accepted, 200);
  });
  // Cancel, pause and resume carry the principal as the actor: the timeline and the audit keep who.
  app.openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid('param');
    await agents.cancel(id, actedRequest(c.get('authOn'), c.get('principal'), c.req.valid('json')));
    return c.json({ id }, 202);
  });
  for (const action of ['pause', 'resume'] as const) {
    app.openapi(holdRoute(action), async (c) => {
      const { id } = c.req.valid('param');
      await agents[action](id, actedRequest(c.get('authOn'), c.get('principal'), c.req.valid('json')));
      return c.json({ id }, 202);
    });
  }
}
