/**
 * A user tool whose parameter schema has a regular expression (docs/tools.md): the model is
 * offered the schema as written, but workflow code checks the call without the expression —
 * the tool's own zod input enforces it when the tool runs, in the activity — so no tool author's
 * or MCP server's pattern ever runs on the workflow thread every agent shares.
 */
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** `lookup { code }`: the code must be digits, a rule written as a regular expression. */
const lookupTool = defineTool({
  name: 'lookup',
  description: 'Look a numeric code up.',
  effect: 'read',
  input: z.object({ code: z.string().regex(/^[0-9]+$/, 'digits only') }),
  run: ({ code }) => Promise.resolve(`code ${code} found`),
});

const stepRequests = () => bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'step');

function assistantCall(request: RecordedRequest | undefined, callId: string): string | undefined {
  for (const message of request?.body.messages ?? []) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? [])
      if (call.id === callId && call.type === 'function') return call.function.arguments;
  }
  return undefined;
}

function toolMessage(request: RecordedRequest | undefined, callId: string): string {
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

test("a tool's pattern is offered to the model and enforced by the tool, never run by workflow code", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCalls([
          { id: 'bad', name: 'lookup', arguments: { code: 'abc' } },
          { id: 'good', name: 'lookup', arguments: { code: '42' } },
        ]),
        finish('looked up'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'look codes up' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const [first, second] = stepRequests();
      // The model sees the pattern.
      const offered = first?.body.tools?.find((t) => t.type === 'function' && t.function.name === 'lookup');
      expect(JSON.stringify(offered)).toContain('"pattern":"^[0-9]+$"');
      // Workflow code let the call through as sent (a failed workflow check keeps `{}` instead)…
      expect(assistantCall(second, 'bad')).toBe('{"code":"abc"}');
      // …and the tool's own input refused it where it runs.
      expect(toolMessage(second, 'bad')).toBe('error: invalid arguments for lookup:\ncode: digits only');
      expect(toolMessage(second, 'good')).toBe('code 42 found');
    },
    [lookupTool],
  );
});
