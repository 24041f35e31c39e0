/**
 * The embedded dev server as `npm run server` runs it, on its own ports and SQLite file:
 * Cairn's search attributes are registered, the Web UI answers, and a workflow started before
 * a server restart is still there after it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../../temporal/connection';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES, startDevServer, type DevServer } from '../../scripts/dev-server';
import { llmCheckWorkflow } from '../../workflows/llm-check-workflow';
import { freePort } from '../../testkit/free-port';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';

const { IndexedValueType } = temporal.api.enums.v1;

async function withClient<T>(address: string, body: (client: Client) => Promise<T>): Promise<T> {
  const connection = await connectTemporal({ address });
  try {
    return await body(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

test('search attributes, Web UI, and state that survives a restart', async () => {
  const dbFile = join(mkdtempSync(join(tmpdir(), 'cairn-restart-')), 'temporal.db');
  const [port, uiPort] = [await freePort(), await freePort()];
  const start = () => startDevServer({ cli: runInfo().temporalCli, dbFile, port, uiPort, logFile: `${dbFile}.log` });
  const workflowId = uniqueId('survivor');

  let server: DevServer = await start();
  try {
    await withClient(server.address, async (client) => {
      const { customAttributes } = await client.connection.operatorService.listSearchAttributes({
        namespace: 'default',
      });
      expect(customAttributes?.AgentPhase).toBe(IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
      expect(customAttributes?.AgentAwaitingInput).toBe(IndexedValueType.INDEXED_VALUE_TYPE_BOOL);
      expect(Object.keys(SEARCH_ATTRIBUTES).sort()).toEqual([
        'AgentAwaitingInput',
        'AgentCostUsd',
        'AgentPhase',
        'AgentTokens',
      ]);
      // No worker polls this queue: the workflow simply waits, as it would across a deploy.
      await client.workflow.start(llmCheckWorkflow, {
        taskQueue: uniqueId('nobody-polls'),
        workflowId,
        args: [{ prompt: 'still here?' }],
      });
    });
    const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
    expect(ui.status).toBe(200);
  } finally {
    await server.stop();
  }

  server = await start();
  try {
    await withClient(server.address, async (client) => {
      const description = await client.workflow.getHandle(workflowId).describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.type).toBe('llmCheckWorkflow');
      await client.workflow.getHandle(workflowId).terminate('test done');
    });
  } finally {
    await server.stop();
  }
});
