/**
 * The HTTP API (docs/contracts.md#http-api) as a Hono app with zod-described routes, so the OpenAPI document
 * at `/api/openapi.json` is generated from the same schemas that validate requests. This file
 * wires the edge — the Host allowlist on every route, bearer auth and a body limit on `/api/*`
 * and on the OpenAI-compatible `/v1/*`,
 * coded errors, health — and the route files under routes/ hold the agent endpoints, built on
 * the client library.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Env, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AgentsPort } from '../agents/agents-port';
import { authenticateApi, guardPage, type Authenticator } from './auth/authenticate';
import { apiTokenAuthentication } from './auth/create-authenticator';
import { cors } from 'hono/cors';
import type { PayloadSettings } from '../../config/payload-config';
import { registerAuditRoute } from '../agents/routes/audit';
import { registerCodecRoutes, type CodecAuditRecord } from './routes/codec';
import { registerMeRoute } from './routes/me';
import { errorHandler, handleNotFound, sendError, validationHook } from './errors';
import { createLog, type Log } from '../redacted-log';
import { LOOPBACK_HOST_NAMES } from '../../config/host-names';
import { requireAllowedHost } from './host-guard';
import { refuseCrossSite, requestOrigin } from './origin-guard';
import { publicOriginOf, publicSite } from './public-url';
import { registerAgentRoutes } from '../agents/routes/agents';
import { registerUploadStart } from '../uploads/routes/agent-uploads';
import { isUploadRequest, type UploadSettings } from '../uploads/upload-form';
import { registerThreadRoutes } from '../threads/routes/threads';
import type { ThreadsPort } from '../threads/threads-port';
import { registerThreadUploads } from '../uploads/routes/thread-uploads';
import { registerThreadReads } from '../threads/routes/thread-reads';
import { registerChatCompletionsRoute } from '../threads/routes/chat-completions';
import { registerGraphRoutes } from '../graphs/routes/graphs';
import { createDefinitionRegistry } from '../definitions/definition-registry';
import { registerDefinitionRoutes } from '../definitions/routes/definition-routes';
import { registerToolsRoute } from '../tools/routes/tools-route';
import { registerModelsRoute } from '../definitions/routes/models-route';
import { defaultEventTiming, registerEventRoutes, type EventStreamTiming } from '../agents/routes/events';
import { registerStreamRoute } from '../live/routes/stream';
import { registerTranscriptRoute } from '../agents/routes/transcript';
import { registerFileRoutes } from '../uploads/routes/files';
import { StreamLimiter } from './stream-limiter';
import { limitSends, SendRateLimiter } from './send-rate-limiter';
import type { StreamLimits } from '../../config/stream-limits';
import { registerWebRoutes } from './routes/web';
import { LiveHub } from '../live/live-hub';
import { TimelineWakes, wakeAfterCommands } from '../agents/timeline-wakes';

/** What the HTTP layer needs from outside: injected so tests can use a real or a dead server. */
export interface AppDeps {
  /** Resolves true when the Temporal frontend answers its health check. */
  temporalHealthy(): Promise<boolean>;
  version: string;
  /** The client library (or the slice of it the routes call). */
  agents: AgentsPort;
  /** The thread client (client/threads/thread-client.ts); without it the app has no thread routes. */
  threads?: ThreadsPort;
  /**
   * Host names (no port) the server answers to; a request naming another is refused with 421
   * before routing, so a DNS-rebinding page cannot use the API. The loopback names by default.
   */
  allowedHosts?: readonly string[];
  /** When set (and `auth` is not), every `/api/*` route requires `Authorization: Bearer <apiToken>`. */
  apiToken?: string;
  /** Authentication and roles (auth/create-authenticator.ts); by default from `apiToken`, else none. */
  auth?: Authenticator;
  /** Largest accepted request body in bytes; 256 KiB by default (a multipart start has its own, `uploads.limits`). */
  maxBodyBytes?: number;
  /**
   * Where `POST /api/agents` stores uploaded files (the workspace root, CAIRN_WORKSPACE) and what
   * a request may carry (CAIRN_UPLOAD_*). Without it a multipart start is refused (415).
   */
  uploads?: UploadSettings;
  /** Event-stream polling and heartbeat; the defaults suit production. */
  eventTiming?: Partial<EventStreamTiming>;
  /**
   * The live streams' one subscriber per agent for this server (client/live/live-hub.ts); by
   * default one over `agents.temporal` (without either, the stream route answers 503).
   */
  live?: LiveHub;
  /**
   * Open streams per principal and in total (CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL,
   * CAIRN_HTTP_MAX_STREAMS); DEFAULT_STREAM_LIMITS by default.
   */
  streamLimits?: StreamLimits;
  /** Thread messages per principal per minute (send-rate-limiter.ts); SENDS_PER_MINUTE on the real clock by default. */
  sendRate?: SendRateLimiter;
  /** The payload codecs the codec server runs (config.payloads); compression only by default. */
  payloads?: PayloadSettings;
  /**
   * The origin browsers reach the server at when a proxy stands in front (CAIRN_PUBLIC_URL, e.g.
   * `https://cairn.example.com`): it makes cookies Secure, the OIDC redirect URI and the origin
   * pages' requests must come from. By default each request's own origin.
   */
  publicOrigin?: string;
  /** Where codec decodes are audited; a JSON line on the log by default. */
  codecAudit?: (record: CodecAuditRecord) => void;
  /** The redacting log every line of the server goes to; by default on stdout / stderr, redacting `apiToken`. */
  log?: Log;
  /** The Temporal Web UI the page links agents and steps to; the embedded server's default UI when absent. */
  temporalUiUrl?: string;
  /**
   * The workspace root the workers use (CAIRN_WORKSPACE), where agents' files are listed and
   * downloaded from (uploads/routes/files.ts); `uploads.root` when absent; without either no agent's files are served.
   */
  workspace?: string;
  /**
   * When a non-streamed answer of the front door must go, for a request; by default a little
   * before the client's announced timeout (client/threads/chat/client-timeout.ts). For tests.
   */
  chatAnswerDeadline?: (request: Request) => AbortSignal;
}

/** The codec server's request limit: the Temporal UI decodes a page of history in one request. */
export const CODEC_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The default request body limit: answers and agent inputs are far smaller. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

const Health = z
  .object({
    status: z.enum(['ok', 'degraded']),
    temporal: z.enum(['up', 'down']),
    version: z.string(),
  })
  .openapi('Health');

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness of the API and its Temporal connection',
  security: [],
  responses: {
    200: { description: 'Serving, and Temporal answers', content: { 'application/json': { schema: Health } } },
    503: { description: 'Serving, but Temporal does not answer', content: { 'application/json': { schema: Health } } },
  },
});

/** Builds the app; the caller serves it (see main.ts). */
export function createApp(deps: AppDeps): OpenAPIHono {
  const app = new OpenAPIHono<Env>({ defaultHook: validationHook });
  const log = deps.log ?? createLog([deps.apiToken]);
  app.onError(errorHandler(log));
  app.notFound(handleNotFound);
  app.use('*', requireAllowedHost(deps.allowedHosts ?? LOOPBACK_HOST_NAMES, [healthRoute.path]));
  app.use('*', publicSite(deps.publicOrigin));
  const payloads = deps.payloads ?? { compression: true };
  // Every mode, `none` included: another site's page must not change anything through a browser.
  const codecOrigin = payloads.codecCorsOrigin;
  app.use(
    '*',
    refuseCrossSite({
      // Behind a proxy the public origin; the request's own too (someone on the machine itself).
      ownOrigins: (c) => [publicOriginOf(c), requestOrigin(c)],
      trusted: codecOrigin ? [{ pathPrefix: '/codec/', origin: codecOrigin }] : [],
    }),
  );
  const auth = deps.auth ?? apiTokenAuthentication(deps.apiToken);
  app.use('/api/*', authenticateApi(auth));
  // The OpenAI-compatible front door is the API under another prefix: the same sign-in and roles.
  app.use('/v1/*', authenticateApi(auth));
  // Once the sender is known: their thread messages, however they come, share one allowance.
  const sends = limitSends(deps.sendRate ?? new SendRateLimiter());
  app.use('/api/*', sends);
  app.use('/v1/*', sends);
  // Every page the web app serves: a signed-out visitor signs in and comes back to it.
  for (const path of ['/', '/agents/:id', '/threads', '/threads/:id']) app.use(path, guardPage(auth));
  const jsonLimit = limitBodies(deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  // A start or thread message with files is held to the upload limit instead, from Content-Length before reading.
  const uploadLimit = deps.uploads ? limitUploads(deps.uploads.limits.maxRequestBytes) : jsonLimit;
  app.use('/api/*', limitByKind(jsonLimit, uploadLimit));
  app.use('/v1/*', jsonLimit);
  if (payloads.codecCorsOrigin) {
    // Before authentication: a browser's preflight carries no credentials.
    app.use(
      '/codec/*',
      cors({
        origin: payloads.codecCorsOrigin,
        credentials: true,
        allowMethods: ['POST', 'OPTIONS'],
        allowHeaders: ['Content-Type', 'Authorization', 'X-Namespace', 'X-Workflow-Id'],
        maxAge: 600,
      }),
    );
  }
  app.use('/codec/*', authenticateApi(auth));
  app.use('/codec/*', limitBodies(CODEC_MAX_BODY_BYTES));
  app.openapi(healthRoute, async (c) => {
    const up = await deps.temporalHealthy().catch(() => false);
    const body = { status: up ? 'ok' : 'degraded', temporal: up ? 'up' : 'down', version: deps.version } as const;
    return up ? c.json(body, 200) : c.json(body, 503);
  });
  registerMeRoute(app, auth.mode);
  const live = deps.live ?? (deps.agents.temporal ? new LiveHub({ client: deps.agents.temporal }) : undefined);
  const eventTiming = { ...defaultEventTiming, ...deps.eventTiming };
  const wakes = live ? new TimelineWakes(live, eventTiming) : undefined;
  // An answer or command passed to an agent here: its event streams read at once.
  if (wakes) app.use('/api/agents/:id/*', wakeAfterCommands(wakes));
  // Before the JSON start: a multipart start is answered there, anything else goes on.
  registerUploadStart(app, deps.agents, deps.uploads);
  registerAgentRoutes(app, deps.agents);
  // One limiter for every streaming route: they all hold connections and poll.
  const streams = new StreamLimiter(deps.streamLimits);
  const definitions = deps.agents.definitions ?? createDefinitionRegistry([]);
  if (deps.threads) {
    registerThreadUploads(app, deps.threads, deps.uploads);
    registerThreadRoutes(app, deps.threads);
    registerThreadReads(app, deps.threads);
    registerModelsRoute(app, definitions);
    registerChatCompletionsRoute(app, {
      heartbeatMs: eventTiming.heartbeatMs,
      definitions,
      threads: deps.threads,
      agents: deps.agents,
      limiter: streams,
      ...(live ? { live } : {}),
      ...(deps.chatAnswerDeadline ? { answerDeadline: deps.chatAnswerDeadline } : {}),
    });
  }
  registerGraphRoutes(app, deps.agents.graphs);
  registerDefinitionRoutes(app, definitions);
  registerToolsRoute(app, deps.agents.tools?.bind(deps.agents));
  registerAuditRoute(app, deps.agents);
  registerTranscriptRoute(app, deps.agents);
  // Files are listed from where uploads are stored: one workspace root, however it was given.
  registerFileRoutes(app, deps.agents, deps.workspace ?? deps.uploads?.root);
  registerEventRoutes(app, deps.agents, eventTiming, streams, wakes);
  registerStreamRoute(app, live, { heartbeatMs: eventTiming.heartbeatMs }, streams, { threads: !!deps.threads });
  const codecAudit = deps.codecAudit ?? ((record: CodecAuditRecord) => log.info(JSON.stringify(record)));
  registerCodecRoutes(app, { payloads, audit: codecAudit });
  documentApi(app, deps.version, auth.mode !== 'none');
  auth.oidc?.registerRoutes(app);
  registerWebRoutes(app, deps.temporalUiUrl ? { temporalUiUrl: deps.temporalUiUrl } : {});
  return app;
}

function limitBodies(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: (c) => sendError(c, 'PAYLOAD_TOO_LARGE', `the request body exceeds ${maxSize} bytes`),
  });
}

/** `upload` for a start with files, `json` for every other request. */
function limitByKind(json: MiddlewareHandler, upload: MiddlewareHandler): MiddlewareHandler {
  return (c, next) => (isUploadRequest(c) ? upload(c, next) : json(c, next));
}

/** The request limit of a start with files: past it 413 UPLOAD_TOO_LARGE, nothing read further. */
function limitUploads(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: (c) => sendError(c, 'UPLOAD_TOO_LARGE', `the upload exceeds ${maxSize} bytes per request`),
  });
}

/** Serves the generated document, declaring bearer auth when authentication is on. */
function documentApi(app: OpenAPIHono, version: string, secured: boolean): void {
  if (secured)
    app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Cairn API', version },
    ...(secured ? { security: [{ bearerAuth: [] }] } : {}),
  });
}
