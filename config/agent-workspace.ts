/**
 * Where an agent's files live: each agent has its own folder under the workspace root
 * (`CAIRN_WORKSPACE`), shared by everything the agent runs — its step children, the agents it
 * nests and, for a thread, every turn. The worker (file tools) and the HTTP API (uploads,
 * listings, downloads) both place files by this one rule, so it lives here, beside the
 * configuration both read.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** A folder name used as it is: starts with a letter or digit, then letters, digits, `.`, `_`, `-`. */
const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The id of the agent (or thread) that owns `workflowId`'s files: everything before the first
 * `/`. Step children (`<agent>/step-<id>`), nested agents (`<agent>/step-<id>/sub-<n>`) and a
 * thread's turns (`<thread>/turn-<n>`) all share their root's folder.
 */
export function workspaceOwner(workflowId: string): string {
  const slash = workflowId.indexOf('/');
  return slash === -1 ? workflowId : workflowId.slice(0, slash);
}

/**
 * The folder name of an owner id: the id itself when it is a safe name (as generated ids are),
 * else `agent-` and 32 hex digits of its SHA-256 — so a hostile or odd id never names a path.
 */
export function workspaceFolderName(ownerId: string): string {
  if (SAFE_FOLDER.test(ownerId) && !ownerId.includes('..')) return ownerId;
  return `agent-${createHash('sha256').update(ownerId).digest('hex').slice(0, 32)}`;
}

/** The absolute folder of `workflowId`'s files under the workspace `root` (not created here). */
export function agentWorkspaceDir(root: string, workflowId: string): string {
  return join(root, workspaceFolderName(workspaceOwner(workflowId)));
}
