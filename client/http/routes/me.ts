/**
 * `GET /api/me`: who the request is — principal id, name, roles, how it came and what
 * authenticated it — and the
 * server's authentication mode, so the page can show only the controls its user may use and say
 * why the others are missing.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AuthConfig } from '../../../config/auth-config';
import { AUTHENTICATED_BY, ROLES } from '../auth/principal';

const Me = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    roles: z.array(z.enum(ROLES)),
    method: z.enum(['web', 'api', 'cli']),
    /** What authenticated this request (the principal's), beside `auth`, the server's mode. */
    authenticatedBy: z.enum(AUTHENTICATED_BY),
    auth: z.enum(['none', 'tokens', 'oidc']),
  })
  .openapi('Me');

const meRoute = createRoute({
  method: 'get',
  path: '/api/me',
  summary: 'The signed-in principal and its roles',
  responses: { 200: { description: 'The principal', content: { 'application/json': { schema: Me } } } },
});

/** Registers `GET /api/me`. */
export function registerMeRoute(app: OpenAPIHono, mode: AuthConfig['mode']): void {
  app.openapi(meRoute, (c) => c.json({ ...c.get('principal'), auth: mode }, 200));
}
