/**
 * An agent's files (docs/contracts.md#agent-files): `GET /api/agents/:id/files` lists what lies in
 * its own folder below the workspace root (config/agent-workspace.ts) — `inputs/` as inputs (the
 * uploads), everything else as outputs — and `GET /api/agents/:id/files/<path>` downloads one.
 * Both need what reading the agent needs (route-roles.ts) and an agent that exists. A path is
 * walked like the file tools walk it (activities/tools/builtin/workspace-files.ts): absolute
 * paths, `..` out of the folder and symbolic links leading out are refused with PATH_REFUSED;
 * links are never listed. Downloads are attachments that no browser renders: nothing from a
 * workspace is ever served inline as HTML or SVG.
 *
 * An agent started before per-agent folders (`state.workspace` absent) worked in the shared
 * root, among every other such agent's files: nothing is listed or served for it.
 */
import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { agentWorkspaceDir } from '../../../config/agent-workspace';
import { listWorkspaceTree, openWorkspaceFile } from '../../../activities/tools/builtin/workspace-files';
import { PATH_REFUSED } from '../../../activities/tools/builtin/workspace-path';
import type { AgentsPort } from '../../agents/agents-port';
import { ApiFailure } from '../../http/errors';
import { AgentIdParams, ErrorBody } from '../../http/schemas';

/** The most files one listing names; a folder with more says `truncated`. */
export const MAX_LISTED_FILES = 2_000;

/** Files under this folder of the agent's are its inputs (uploads); the rest are what it wrote. */
const INPUTS = 'inputs/';

/** Extensions served as plain text (still as an attachment); anything else as bytes. */
const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.csv', '.json', '.log', '.yaml', '.yml', '.tsv']);

const AgentFile = z
  .object({
    path: z.string().openapi({ example: 'report.md' }),
    size: z.number().int().nonnegative(),
    kind: z.enum(['input', 'output']),
  })
  .openapi('AgentFile');

const AgentFiles = z
  .object({
    files: z.array(AgentFile),
    /**
     * `agent`: the agent's own folder, listed; `shared`: an agent started before per-agent
     * folders, whose files lie in the shared workspace root among others' — none are listed;
     * `none`: this server was given no workspace folder, so it serves no agent's files.
     */
    workspace: z.enum(['agent', 'shared', 'none']),
    /** More than MAX_LISTED_FILES files: the first ones found are listed. */
    truncated: z.boolean().optional(),
  })
  .openapi('AgentFiles');

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const listRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/files',
  summary: "The files in an agent's folder, with sizes: its inputs (under inputs/) and what it wrote",
  request: { params: AgentIdParams },
  responses: {
    200: { description: 'The files, sorted by path (symbolic links left out)', content: json(AgentFiles) },
    404: { description: 'No such agent (NOT_FOUND)', content: json(ErrorBody) },
    503: { description: 'No worker answered in time (AGENT_UNAVAILABLE)', content: json(ErrorBody) },
  },
});

/** Control characters (NUL included): no file name in an agent's folder holds one. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const FilePathParams = AgentIdParams.extend({
  path: z
    .string()
    .min(1)
    .max(4_000)
    .refine((path) => !CONTROL_CHARACTER.test(path), 'a file path holds no control character')
    .openapi({ param: { name: 'path', in: 'path' }, example: 'inputs/brief.pdf' }),
});

/** The download, for the document only: Hono serves it by the pattern below (a path spans folders). */
const downloadRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/files/{path}',
  summary: "Downloads one file of an agent's folder, as an attachment",
  request: { params: FilePathParams },
  responses: {
    200: {
      description:
        'The bytes (application/octet-stream, or text/plain for text), Content-Disposition attachment, nosniff, CSP sandbox',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    400: {
      description:
        'The path leads outside the agent’s folder (PATH_REFUSED), or holds a control character (INVALID_INPUT)',
      content: json(ErrorBody),
    },
    404: { description: 'No such agent, or no such file in its folder (NOT_FOUND)', content: json(ErrorBody) },
    503: { description: 'No worker answered in time (AGENT_UNAVAILABLE)', content: json(ErrorBody) },
  },
});

/** The download's Hono pattern: `path` takes the rest of the URL, folders and all. */
export const DOWNLOAD_PATTERN = '/api/agents/:id/files/:path{.+}';

/**
 * The agent's own folder, or undefined for an agent in the shared root. Reading its state (a
 * query, as `GET /api/agents/:id`) answers NOT_FOUND for an unknown agent.
 */
async function folderOf(agents: AgentsPort, root: string | undefined, id: string): Promise<string | undefined> {
  const state = await agents.state(id, Number.MAX_SAFE_INTEGER); // no events: only the fields
  if (state.workspace !== 'agent') return undefined;
  if (root === undefined) throw new ApiFailure('NOT_FOUND', 'this server was given no workspace folder');
  return agentWorkspaceDir(root, id);
}

/** A file-system refusal or absence as the API's coded failure; anything else as it was. */
export function asApiFailure(err: unknown, path: string): unknown {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  // Node refuses a path it cannot pass to the system (a NUL in it): the request's fault, not the server's.
  if (code === 'ERR_INVALID_ARG_VALUE') {
    return new ApiFailure('INVALID_INPUT', 'the file path is not one a file system takes', 'path');
  }
  if (code === PATH_REFUSED || code === 'ELOOP') {
    return new ApiFailure('PATH_REFUSED', `"${path}" leads outside the agent's folder`, 'path');
  }
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new ApiFailure('NOT_FOUND', `no file "${path}" in the agent's folder`, 'path');
  }
  return err;
}

/** `attachment` with the name as RFC 6266 wants it: an ASCII fallback and the UTF-8 name. */
export function attachmentHeader(path: string): string {
  const name = basename(path);
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Serves one file of the agent's folder with headers no browser renders or sniffs. */
async function download(c: Context, agents: AgentsPort, root: string | undefined): Promise<Response> {
  const params = FilePathParams.safeParse({ id: c.req.param('id'), path: c.req.param('path') });
  if (!params.success) throw new ApiFailure('INVALID_INPUT', params.error.issues[0]?.message ?? 'invalid', 'path');
  const { id, path } = params.data;
  const folder = await folderOf(agents, root, id);
  if (folder === undefined) {
    throw new ApiFailure('NOT_FOUND', `agent "${id}" works in the shared workspace root: its files are not served`);
  }
  if (!existsSync(folder)) throw new ApiFailure('NOT_FOUND', `no file "${path}" in the agent's folder`, 'path');
  const { handle, size } = await openWorkspaceFile(folder, path).catch((err: unknown) => {
    throw asApiFailure(err, path);
  });
  const text = TEXT_EXTENSIONS.has(extname(path).toLowerCase());
  const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': text ? 'text/plain; charset=utf-8' : 'application/octet-stream',
      'Content-Length': String(size),
      'Content-Disposition': attachmentHeader(path),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': 'sandbox',
      'Cache-Control': 'private, no-store',
    },
  });
}

/**
 * Registers the files routes. `root` is the workspace root (CAIRN_WORKSPACE) the workers use:
 * on several hosts, storage all of them and this server share.
 */
export function registerFileRoutes(app: OpenAPIHono, agents: AgentsPort, root: string | undefined): void {
  app.openapi(listRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (root === undefined) {
      await agents.state(id, Number.MAX_SAFE_INTEGER); // an unknown agent is still 404
      return c.json({ files: [], workspace: 'none' as const }, 200);
    }
    const folder = await folderOf(agents, root, id);
    if (folder === undefined) return c.json({ files: [], workspace: 'shared' as const }, 200);
    if (!existsSync(folder)) return c.json({ files: [], workspace: 'agent' as const }, 200);
    const { files, truncated } = await listWorkspaceTree(folder, { limit: MAX_LISTED_FILES });
    const listed = files.map((f) => ({
      ...f,
      kind: f.path.startsWith(INPUTS) ? ('input' as const) : ('output' as const),
    }));
    return c.json({ files: listed, workspace: 'agent' as const, ...(truncated ? { truncated } : {}) }, 200);
  });
  app.openAPIRegistry.registerPath(downloadRoute);
  app.get(DOWNLOAD_PATTERN, (c) => download(c, agents, root));
}
