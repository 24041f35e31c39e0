/**
 * Who makes a request (docs/operations.md#authentication-and-roles): a principal with an id, a
 * display name, roles, and how it came (web page session, API token or JWT, the CLI). Roles are
 * additive grants; `admin` holds every one, and any role lets its holder read (`viewer`).
 */
import { z } from 'zod';

/** The roles, from least to most. */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/** How a principal reached Cairn; `temporal-signal` is an answer sent to Temporal directly. */
export type AuthMethod = 'web' | 'api' | 'cli';

export interface Principal {
  /** Stable id: the token file's `principal`, the JWT's `sub`. */
  id: string;
  name?: string;
  roles: Role[];
  method: AuthMethod;
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
