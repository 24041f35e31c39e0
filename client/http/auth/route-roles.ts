/**
 * The role each HTTP route needs (or, as a list, any one of them) (docs/operations.md#authentication-and-roles), as one table:
 * a new route adds its line here. A route missing from the table needs `admin`, so forgetting a
 * line locks the route down rather than opening it; a test checks every served route is listed.
 */
import type { Role } from './principal';

/** `METHOD /path` (Hono's `:param` form) → the role it needs. */
export const ROUTE_ROLES: Readonly<Record<string, Role | readonly Role[]>> = {
  'GET /api/openapi.json': 'viewer',
  'GET /api/me': 'viewer',
  'GET /api/agents': 'viewer',
  'GET /api/agents/:id': 'viewer',
  'GET /api/agents/:id/events': 'viewer',
  'GET /api/agents/:id/stream': 'viewer',
  'GET /api/agents/:id/audit': 'viewer',
  'GET /api/agents/:id/steps/:stepId/transcript': 'viewer',
  // An agent's files, as its state: whoever may read the agent (the path may hold folders).
  'GET /api/agents/:id/files': 'viewer',
  'GET /api/agents/:id/files/:path{.+}': 'viewer',
  'GET /api/graphs': 'viewer',
  'GET /api/agent-definitions': 'viewer',
  'GET /api/agent-definitions/:name': 'viewer',
  // What the workers offer: every registered tool, its schema, whether it needs approval.
  'GET /api/tools': 'viewer',
  // The door's model list: the definitions, as the catalogue lists them.
  'GET /v1/models': 'viewer',
  'GET /api/threads': 'viewer',
  'GET /api/threads/:id': 'viewer',
  // One message whole: read as the thread it belongs to.
  'GET /api/threads/:id/messages/:messageId': 'viewer',
  'GET /api/threads/:id/stream': 'viewer',
  'POST /api/agents': 'operator',
  'POST /api/agents/:id/cancel': 'operator',
  'POST /api/agents/:id/pause': 'operator',
  'POST /api/agents/:id/resume': 'operator',
  // A message may start an agent under the sender's principal: as starting one.
  'POST /api/threads': 'operator',
  'POST /api/threads/:id/messages': 'operator',
  // The OpenAI-compatible front door sends a message (and may answer the running turn's question).
  'POST /v1/chat/completions': 'operator',
  // Any role that may answer something (an agent's `answerRoles` may let operators steer it);
  // the workflow then checks the interaction's own role (`approver` unless named).
  'POST /api/agents/:id/answers': ['approver', 'operator'],
  // The codec server: a decode opens whole histories, an encode writes messages workers accept;
  // not to viewers (nor approvers). Viewers still read agents' state through the API.
  'POST /codec/encode': 'operator',
  'POST /codec/decode': 'operator',
};

/** What a path parameter matches: one segment, or its own pattern (`:path{.+}`, Hono's form). */
function paramSource(part: string): string {
  const own = /^:\w+\{(.+)\}$/.exec(part)?.[1];
  return own === undefined ? '[^/]+' : `(?:${own})`;
}

const PATTERNS = Object.entries(ROUTE_ROLES).map(([route, role]) => {
  const [method = '', path = ''] = route.split(' ');
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? paramSource(part) : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, regex: new RegExp(`^${source}/?$`), roles: typeof role === 'string' ? [role] : role };
});

/** The roles a request needs (any one of them); `admin` for anything the table does not list. */
export function requiredRoles(method: string, path: string): readonly Role[] {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return PATTERNS.find((p) => p.method === wanted && p.regex.test(path))?.roles ?? ['admin'];
}
