/**
 * Images to vision models: a step's `read_file` of a PNG reaches a model with `model.vision` as
 * an image part (a data URL of the file's bytes, loaded by the LLM activity, in a user message
 * after the tool results), while the history holds only the reference; a model without vision
 * is told it cannot see images and gets no image part.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { agentFolder, startAgent } from '../harness/agents';
import { finish } from '../harness/plans';
import { testConfig, uniqueId, withWorker } from '../harness/test-env';
import { IMAGE_NOT_SEEN, IMAGE_SHOWN } from '../../workflows/model/step/tool-images';

const bed = agentTestbed();
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Runs a one-step agent that reads chart.png, and returns the messages of its second model call. */
async function secondRequest(vision: boolean): Promise<ChatCompletionMessageParam[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'vision-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const agentId = uniqueId('agent-test');
  writeFileSync(join(agentFolder(config, agentId), 'chart.png'), PNG);
  bed.llm.respondWith(
    byRoute({ 'step:task': [reply.toolCall('read_file', { path: 'chart.png' }, 'img'), finish('a single pixel')] }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(
      bed.client,
      config,
      {
        task: 'describe the chart',
        mode: { plan: false },
        model: { vision },
      },
      agentId,
    );
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    // The history holds the reference, never the bytes.
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history).not.toContain(PNG.toString('base64'));
  });
  const steps = bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'step');
  expect(steps).toHaveLength(2);
  return steps[1]?.body.messages ?? [];
}

const toolResult = (messages: ChatCompletionMessageParam[]) =>
  messages.find((m) => m.role === 'tool' && m.tool_call_id === 'img')?.content;

test('a vision model gets the image the step read as an image part after the tool results', async () => {
  const messages = await secondRequest(true);
  expect(toolResult(messages)).toBe(`"chart.png" is an image (image/png, ${PNG.length} bytes). ${IMAGE_SHOWN}`);
  const toolAt = messages.findIndex((m) => m.role === 'tool');
  const after = messages[toolAt + 1];
  expect(after?.role).toBe('user');
  const parts = Array.isArray(after?.content) ? after.content : [];
  expect(parts).toContainEqual({
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` },
  });
});

test('a model without vision is told it cannot see the image and gets no image part', async () => {
  const messages = await secondRequest(false);
  expect(toolResult(messages)).toBe(`"chart.png" is an image (image/png, ${PNG.length} bytes). ${IMAGE_NOT_SEEN}`);
  expect(JSON.stringify(messages)).not.toContain('image_url');
});
