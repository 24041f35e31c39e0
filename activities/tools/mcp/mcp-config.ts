/**
 * The MCP server list, given as JSON text in CAIRN_MCP_SERVERS: each server is
 * a command to spawn (stdio) or a URL (streamable HTTP), and says which of its tools write.
 * Validated at start with one line per problem, like the rest of the configuration.
 */
import { z } from 'zod';
import { ConfigError } from '../../../config/config';
import { issueLines } from '../../../workflows/base/issue-lines';

/** The environment variable holding the server list. */
export const MCP_SERVERS_VARIABLE = 'CAIRN_MCP_SERVERS';

/** Server names are short: they prefix every tool name, which is capped at 64 characters. */
export const MCP_SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,20}$/;

const nonEmpty = (what: string) => z.string({ error: `expected ${what}` }).min(1, `expected ${what}`);

/** One MCP server. Exactly one of `command` (stdio) or `url` (streamable HTTP). */
export const mcpServerSchema = z
  .strictObject(
    {
      name: z
        .string({ error: 'expected a string' })
        .regex(MCP_SERVER_NAME_PATTERN, 'expected 1-20 letters, digits, "_" or "-"'),
      command: nonEmpty('a command to run').optional(),
      args: z.array(z.string(), { error: 'expected an array of strings' }).optional(),
      env: z
        .record(z.string(), z.string({ error: 'expected a string' }), { error: 'expected an object of strings' })
        .optional(),
      cwd: nonEmpty('a folder').optional(),
      url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
      /**
       * `true`: every tool of the server writes; a list: the named tools (as the server names them),
       * even if the server marks them read-only; `false`: none does.
       */
      write: z
        .union([z.boolean(), z.array(nonEmpty('a tool name'))], {
          error: 'expected true, false or a list of tool names',
        })
        .optional(),
      /**
       * Tools that only read (`true`: all of them). Any other tool the server does not mark
       * `readOnlyHint` counts as a write and needs approval.
       */
      read: z
        .union([z.literal(true), z.array(nonEmpty('a tool name'))], { error: 'expected true or a list of tool names' })
        .optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
  )
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'expected exactly one of "command" (stdio) or "url" (HTTP)' });
    }
    for (const field of ['args', 'env', 'cwd'] as const) {
      if (server.url !== undefined && server[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'only applies to a "command" server' });
      }
    }
  });

/** The whole list; server names must be unique. */
export const mcpServersSchema = z
  .array(mcpServerSchema, { error: 'expected a JSON array of servers' })
  .superRefine((servers, ctx) => {
    const seen = new Set<string>();
    servers.forEach((server, i) => {
      if (seen.has(server.name)) {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${server.name}" is used by another server` });
      }
      seen.add(server.name);
    });
  });

/** One validated MCP server. */
export type McpServerConfig = z.output<typeof mcpServerSchema>;

/**
 * Parses and validates the server list.
 * @param json the JSON text of CAIRN_MCP_SERVERS; unset or blank means no servers.
 * @throws ConfigError with one line per problem, e.g. `CAIRN_MCP_SERVERS[1].url: expected an http(s) URL`.
 */
export function parseMcpServers(json: string | undefined): McpServerConfig[] {
  if (json === undefined || json.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new ConfigError([`${MCP_SERVERS_VARIABLE}: not valid JSON (${err instanceof Error ? err.message : ''})`]);
  }
  const parsed = mcpServersSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(issueLines(parsed.error, MCP_SERVERS_VARIABLE, MCP_SERVERS_VARIABLE, 'brackets'));
  }
  return parsed.data;
}
