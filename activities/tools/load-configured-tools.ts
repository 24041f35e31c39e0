/**
 * The tools a worker offers beyond the built-ins: user modules (CAIRN_TOOLS) and MCP servers
 * (CAIRN_MCP_SERVERS), loaded and validated once at start. A bad module or a server that does
 * not start stops the worker with a message naming it.
 */
import { loadUserTools } from './load-user-tools';
import type { ToolDefinition } from './define-tool';
import { loadMcpTools } from './mcp/load-mcp-tools';
import { parseMcpServers } from './mcp/mcp-config';
import type { CairnConfig } from '../../config/config';

export interface LoadedTools {
  tools: ToolDefinition[];
  /** Stops the MCP servers this started. */
  close: () => Promise<void>;
}

/** Loads user and MCP tools from the configuration. */
export async function loadConfiguredTools(config: CairnConfig, cwd = process.cwd()): Promise<LoadedTools> {
  const user = await loadUserTools(config.tools.modules, cwd);
  const mcp = await loadMcpTools(parseMcpServers(config.tools.mcpServers));
  return { tools: [...user, ...mcp.tools], close: () => mcp.close() };
}
