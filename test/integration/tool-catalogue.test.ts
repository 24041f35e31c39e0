/**
 * The tool catalogue (`GET /api/tools`, `cairn tools` against a server): what the task queue's
 * workers offer, as their `listTools` activity answers through a `toolCatalogueWorkflow` — here a
 * worker with a user tool module and an MCP server (a real stdio child process) beside the
 * built-ins. The same list comes through the client library, the HTTP route and the CLI's API
 * client; with no worker on the task queue it is 503 `AGENT_UNAVAILABLE` after the 5 s wait.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
// The app first: its routes' schemas extend zod with `.openapi` before the CLI's client loads them.
import { appOver } from '../harness/http-app';
import { AgentClient } from '../../client/agents/agent-client';
import { CairnApi } from '../../client/cli/cairn-api';
import { loadUserTools } from '../../activities/tools/load-user-tools';
import { loadMcpTools } from '../../activities/tools/mcp/load-mcp-tools';
import type { ToolInfo } from '../../workflows/model/tools/tool-types';
import { toolCatalogueWorkflow } from '../../workflows/tool-catalogue-workflow';
import { agentTestbed } from '../harness/agent-testbed';
import { recordHistory } from '../harness/histories';
import { serveOnLoopback } from '../harness/sse-client';
import { uniqueId, withWorker } from '../harness/test-env';

const bed = agentTestbed();
const ROOT = resolve(__dirname, '../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const ECHO_SERVER = resolve(__dirname, '../fixtures/mcp/echo-server.ts');

/** Name, effect and approval of each tool, sorted by name. */
const brief = (tools: ToolInfo[]) =>
  tools.map((t) => [t.name, t.effect, t.needsApproval] as const).sort(([a], [b]) => a.localeCompare(b));

test('a worker with a user module and an MCP server: the library, GET /api/tools and the CLI client list the same tools', async () => {
  const user = await loadUserTools(['test/fixtures/user-tools/greeting-tools.ts'], ROOT);
  const mcp = await loadMcpTools([
    { name: 'echo', command: process.execPath, args: ['--import', TSX, ECHO_SERVER, '--stdio'], write: ['add'] },
  ]);
  const agents = new AgentClient(bed.client, bed.config.taskQueue);
  const server = await serveOnLoopback(appOver(agents));
  try {
    await withWorker(
      bed.config,
      async () => {
        const tools = await agents.tools();
        const names = tools.map((t) => t.name);
        // Built-ins, the workflows' own tools, the user module's and the MCP server's (prefixed).
        expect(names).toEqual(expect.arrayContaining(['read_file', 'write_file', 'http_fetch', 'sub_agent']));
        expect(brief(tools)).toEqual(
          expect.arrayContaining([
            ['greet', 'read', false],
            ['farewell', 'write', true],
            ['echo__echo', 'read', false],
            ['echo__add', 'write', true],
          ]),
        );
        expect(tools.find((t) => t.name === 'greet')?.parameters).toMatchObject({
          properties: { name: { type: 'string' } },
        });

        const response = await fetch(`${server.url}/api/tools`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { tools: ToolInfo[] };
        expect(brief(body.tools)).toEqual(brief(tools));
        expect(brief(await new CairnApi({ url: server.url }).tools())).toEqual(brief(tools));

        // The workflow run alone, as the client starts it: its history is kept for replay.
        const handle = await bed.client.workflow.start(toolCatalogueWorkflow, {
          taskQueue: bed.config.taskQueue,
          workflowId: uniqueId('tool-catalogue'),
        });
        expect(brief(await handle.result())).toEqual(brief(tools));
        await recordHistory('tool-catalogue', handle);
      },
      [...user, ...mcp.tools],
    );
  } finally {
    await server.close();
    await mcp.close();
  }
});

test('no worker on the task queue: GET /api/tools is 503 AGENT_UNAVAILABLE', async () => {
  const agents = new AgentClient(bed.client, uniqueId('no-worker'));
  const answered = await appOver(agents).request('/api/tools');
  expect(answered.status).toBe(503);
  expect(await answered.json()).toMatchObject({ error: { code: 'AGENT_UNAVAILABLE' } });
});
