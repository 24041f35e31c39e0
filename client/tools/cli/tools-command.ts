/**
 * `cairn tools`: the tools a worker with this configuration offers — built-ins, user modules
 * and MCP servers — with effect and whether calls need approval; with CAIRN_API_URL set, the
 * tools the server's workers offer (`GET /api/tools`).
 */
import { builtinTools } from '../../../activities/create-activities';
import { createToolRegistry } from '../../../activities/tools/tool-registry';
import type { CairnConfig } from '../../../config/config';
import { workflowBuiltins } from '../../../workflows/model/tools/builtin-tools';
import type { ToolInfo } from '../../../workflows/model/tools/tool-types';
import { loadConfiguredTools } from '../../../activities/tools/load-configured-tools';
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import { EXIT } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** The catalogue as a worker would build it. */
export async function listConfiguredTools(config: CairnConfig): Promise<ToolInfo[]> {
  const configured = await loadConfiguredTools(config);
  try {
    const builtins = builtinTools(config.tools.fetchAllow);
    const registry = createToolRegistry(
      [...builtins, ...configured.tools],
      undefined,
      builtins.map((t) => t.name),
    );
    return [...registry.list(undefined, config.tools.autoApprove), ...Object.values(workflowBuiltins())];
  } finally {
    await configured.close();
  }
}

/** Runs the command; resolves with its exit code. */
export async function toolsCommand(options: { json?: boolean }): Promise<number> {
  const target = cliApi();
  const tools = target ? await new CairnApi(target).tools() : await listConfiguredTools(loadConfigOrExit());
  printLine(options.json ? JSON.stringify(tools, null, 2) : formatTools(tools));
  return EXIT.ok;
}

/** One line per tool, for people. */
export function formatTools(tools: ToolInfo[]): string {
  const width = Math.max(...tools.map((t) => t.name.length));
  return tools
    .map(
      (t) =>
        `${t.name.padEnd(width)}  ${`${t.effect}${t.needsApproval ? ' (approval)' : ''}`.padEnd(16)}  ${t.description}`,
    )
    .join('\n');
}
