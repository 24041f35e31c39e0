/**
 * `GET /api/agents/:id/audit` (docs/operations.md#who-answered-the-audit-record): every decision
 * on the agent, oldest first, with who and when — each answered or expired interaction (its
 * kind, the decision, `by` and the authenticated `actor` with its method) and the timeline's
 * pauses, resumes and end. Read from the agent's state; nothing is stored twice.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { auditEntrySchema, auditOf } from '../audit-entries';
import type { AgentsPort } from '../agents-port';
import { AgentIdParams, ErrorBody } from '../../http/schemas';

const AuditEntry = auditEntrySchema.openapi('AuditEntry');

const Audit = z.object({ id: z.string(), entries: z.array(AuditEntry) }).openapi('Audit');

const auditRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/audit',
  summary: 'Every decision on the agent — answers, expiries, pauses, resumes, the end — with who and when',
  request: { params: AgentIdParams },
  responses: {
    200: { description: 'The audit, oldest first', content: { 'application/json': { schema: Audit } } },
    404: { description: 'No such agent (NOT_FOUND)', content: { 'application/json': { schema: ErrorBody } } },
  },
});

/** Registers the audit route. */
export function registerAuditRoute(app: OpenAPIHono, agents: AgentsPort): void {
  app.openapi(auditRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json({ id, entries: auditOf(await agents.state(id)) }, 200);
  });
}
