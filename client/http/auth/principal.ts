/**
 * Who makes a request (docs/operations.md#authentication-and-roles): a principal with an id, a
 * display name, roles, how it came (web page session, API token or JWT, the CLI) and what
 * authenticated it. Roles are additive grants; `admin` holds every one, and any role lets its
 * holder read (`viewer`).
 */
import { z } from 'zod';
import { AUTHENTICATED_BY } from '../../../workflows/model/interactions/answer-input-schema';

/** The roles, from least to most. */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/**
 * How a principal reached Cairn, from what authenticated it: `web` is the page's signed-in
 * session and nothing else; a bearer credential is `api`, or `cli` when the client says it is
 * Cairn's CLI (its word, among bearer requests only). With authentication off, the client's word.
 */
export type AuthMethod = 'web' | 'api' | 'cli';

/** What authenticated a request (`token`, `shared-token`, `oidc-session`, `oidc-bearer`, `none`). */
export type AuthenticatedBy = (typeof AUTHENTICATED_BY)[number];
export { AUTHENTICATED_BY };

export interface Principal {
  /** Stable id: the token file's `principal`, the JWT's `sub`. */
  id: string;
  /** A display name (a token entry's `name`, the provider's `name` claim): shown beside the id, never for it. */
  name?: string;
  roles: Role[];
  method: AuthMethod;
  authenticatedBy: AuthenticatedBy;
}

/** Whether `roles` grant `needed`: held directly, through `admin`, or — for `viewer` — through any role. */
export function grants(roles: readonly Role[], needed: Role): boolean {
  if (roles.includes('admin') || roles.includes(needed)) return true;
  return needed === 'viewer' && roles.length > 0;
}

/** The roles in a claim value (a list, or a space- or comma-separated string); unknown names are dropped. */
export function rolesFrom(claim: unknown): Role[] {
  const names = Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(/[\s,]+/) : [];
  return ROLES.filter((role) => names.includes(role));
}

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by the authentication middleware for every authenticated request. */
    principal: Principal;
  }
}
