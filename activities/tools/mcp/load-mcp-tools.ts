/**
 * Tools from MCP servers, through the official SDK client: each configured
 * server is started (stdio) or reached (streamable HTTP) once per worker, its tools listed,
 * and each becomes a ToolDefinition named `<server>__<tool>`. The server's JSON Schema goes to
 * the model untouched and the server validates its own arguments, so the zod input is
 * deliberately permissive. A server that cannot start fails the whole load, naming it.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../define-tool';
import type { McpServerConfig } from './mcp-config';

/** Tools from MCP servers, and the way to stop those servers. */
export interface LoadedMcpTools {
  tools: ToolDefinition[];
  /** Disconnects every server (stdio children are ended). Safe to call more than once. */
  close(): Promise<void>;
}

/** Tuning for {@link loadMcpTools}. */
export interface LoadMcpToolsOptions {
  /** Longest a server may take to start and answer `initialize`, in ms (default 30 s). */
  startTimeoutMs?: number;
  /** Longest one tool call may take, in ms (default 60 s, the SDK's own). */
  callTimeoutMs?: number;
  /** Receives each stderr line of a stdio server (default: process stderr, prefixed). */
  onStderrLine?: (server: string, line: string) => void;
}

const CLIENT_INFO = { name: 'cairn', version: '0.1.0' };
const STDERR_TAIL_LINES = 20;

/** A connected server and its tools. */
interface Connection {
  server: string;
  client: Client;
  transport: Transport;
  tools: ToolDefinition[];
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `<server>__<tool>`, with characters OpenAI refuses replaced by `_`, cut to 64. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/** Short text for one content part: text as is, anything else summarised. */
function renderPart(part: ContentBlock): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}, about ${Math.floor((part.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
    case 'resource': {
      const { resource } = part;
      if ('text' in resource) return `[resource ${resource.uri}]\n${resource.text}`;
      return `[binary resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`;
    }
  }
}

/** What `callTool` returns: a current result, or the pre-2024-11 `{ toolResult }` shape. */
type CallResult = Awaited<ReturnType<Client['callTool']>>;

function hasContent(result: CallResult): result is CallToolResult {
  return Array.isArray(result.content);
}

/** Joins a call result's content parts; structured content stands in when there are none. */
function renderResult(result: CallResult): string {
  if (!hasContent(result)) return JSON.stringify(result.toolResult ?? null);
  const parts = result.content;
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.map(renderPart).join('\n');
}

/**
 * Whether a tool writes. A tool of unknown effect writes (needs approval): it reads only when
 * the configuration says so (`read`, or `write: false`) or the server marks it `readOnlyHint`
 * — and the configuration's `write` overrides that hint.
 */
function isWrite(server: McpServerConfig, tool: Tool): boolean {
  const listed = (value: boolean | string[] | undefined) =>
    value === true || (Array.isArray(value) && value.includes(tool.name));
  if (listed(server.write)) return true;
  if (listed(server.read) || server.write === false) return false;
  return tool.annotations?.readOnlyHint !== true;
}

/** One MCP tool as a Cairn tool that calls it through `client`. */
function toToolDefinition(server: McpServerConfig, client: Client, tool: Tool, callTimeoutMs?: number): ToolDefinition {
  return defineTool({
    name: mcpToolName(server.name, tool.name),
    description: tool.description ?? tool.title ?? `Tool "${tool.name}" of the MCP server "${server.name}".`,
    input: z.looseObject({}),
    parameters: tool.inputSchema,
    effect: isWrite(server, tool) ? 'write' : 'read',
    async run(args, { signal }) {
      const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
        signal,
        timeout: callTimeoutMs,
      });
      const text = renderResult(result);
      if (result.isError === true) throw new Error(text || `${tool.name} reported an error without a message`);
      return text;
    },
  });
}

/** Every tool the server offers, following pagination. */
async function listAllTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** A `write` or `read` list naming a tool the server lacks is a typo that would go unnoticed. */
function checkWriteNames(server: McpServerConfig, tools: Tool[]): void {
  const offered = new Set(tools.map((t) => t.name));
  for (const field of ['write', 'read'] as const) {
    const names = server[field];
    if (!Array.isArray(names)) continue;
    const missing = names.filter((name) => !offered.has(name));
    if (missing.length > 0) {
      throw new Error(
        `"${field}" names ${missing.map((m) => `"${m}"`).join(', ')}, which the server does not offer ` +
          `(it offers ${[...offered].join(', ') || 'no tools'})`,
      );
    }
  }
}

/** The transport for a server, and a function returning the last lines of its stderr. */
function createTransport(server: McpServerConfig, options: LoadMcpToolsOptions): [Transport, () => string[]] {
  if (server.url !== undefined) return [new StreamableHTTPClientTransport(new URL(server.url)), () => []];
  const transport = new StdioClientTransport({
    command: server.command ?? '',
    args: server.args,
    env: server.env,
    cwd: server.cwd,
    stderr: 'pipe',
  });
  const tail: string[] = [];
  const forward = options.onStderrLine ?? ((name, line) => process.stderr.write(`[mcp ${name}] ${line}\n`));
  // With `stderr: 'pipe'` the SDK hands out a PassThrough at once (typed as a bare Stream).
  const stderr = transport.stderr as Readable | null;
  if (stderr) {
    createInterface({ input: stderr }).on('line', (line) => {
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      forward(server.name, line);
    });
  }
  return [transport, () => tail];
}

/** Starts or reaches one server and lists its tools; on failure, cleans up and names it. */
async function connectServer(server: McpServerConfig, options: LoadMcpToolsOptions): Promise<Connection> {
  const [transport, stderrTail] = createTransport(server, options);
  const client = new Client(CLIENT_INFO);
  const timeout = options.startTimeoutMs ?? 30_000;
  try {
    await client.connect(transport, { timeout });
    const listed = await listAllTools(client, timeout);
    checkWriteNames(server, listed);
    const tools = listed.map((tool) => toToolDefinition(server, client, tool, options.callTimeoutMs));
    return { server: server.name, client, transport, tools };
  } catch (err) {
    await client.close().catch(() => undefined);
    // Neither args nor the full URL: either may carry a token.
    const where = server.url !== undefined ? new URL(server.url).origin : server.command;
    const tail = stderrTail();
    const stderr = tail.length > 0 ? `\n  its stderr ended with:\n    ${tail.join('\n    ')}` : '';
    throw new Error(`MCP server "${server.name}" (${where}) failed to start: ${errorText(err)}${stderr}`, {
      cause: err,
    });
  }
}

/** Disconnects one server; an HTTP session is ended politely first. */
async function disconnect({ client, transport }: Connection): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
  await client.close().catch(() => undefined);
}

/** Two MCP tools whose names collide after prefixing, cleaning and cutting are an error. */
function checkUniqueNames(connections: Connection[]): void {
  const owners = new Map<string, string>();
  for (const { server, tools } of connections) {
    for (const { name } of tools) {
      const owner = owners.get(name);
      if (owner !== undefined) {
        throw new Error(`MCP tools of servers "${owner}" and "${server}" both become "${name}"; rename a server`);
      }
      owners.set(name, server);
    }
  }
}

/**
 * Connects to every configured MCP server (in parallel) and turns its tools into Cairn tools.
 * @param servers validated configuration, from `parseMcpServers`.
 * @returns the tools (`<server>__<tool>`, effect from the server's `write`) and `close()`,
 *   which must be called when the worker stops so stdio servers end with it.
 * @throws Error naming each server that failed to start (its stderr tail included), a `write`
 *   entry the server does not offer, or two tools that end up with one name; servers already
 *   connected are closed before it is thrown.
 */
export async function loadMcpTools(
  servers: readonly McpServerConfig[],
  options: LoadMcpToolsOptions = {},
): Promise<LoadedMcpTools> {
  const settled = await Promise.allSettled(servers.map((server) => connectServer(server, options)));
  const connections = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= Promise.all(connections.map(disconnect)).then(() => undefined));
  try {
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [errorText(r.reason)] : []));
    if (failures.length > 0) throw new Error(failures.join('\n'));
    checkUniqueNames(connections);
  } catch (err) {
    await close();
    throw err;
  }
  return { tools: connections.flatMap((c) => c.tools), close };
}
