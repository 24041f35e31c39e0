/**
 * `cairn run --definition <name>` through the real bin script (docs/definitions.md): the agent
 * starts with what the definition fills — its instructions as the system prompt, its tools, its
 * mode and limits — and carries its snapshot (read back from history; no worker runs it here). A
 * start may change only what the definition lists as `overridable` (support: the model), so
 * `--no-plan` beside it is refused, as is a name no definition has; neither starts an agent.
 */
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { DefinitionRegistry } from '../../client/definitions/definition-registry';
import { loadDefinitionRegistry } from '../../client/definitions/load-definitions';
import { agentStartedBy, runCairn, spawnCairn } from '../harness/cairn-cli';
import { startedInput } from '../harness/started-input';
import { closeClient, connectClient, uniqueId } from '../harness/test-env';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = 'examples/agents/index.ts';

let client: Client;
let registry: DefinitionRegistry;
const started: string[] = [];

beforeAll(async () => {
  client = await connectClient();
  registry = await loadDefinitionRegistry(EXAMPLES, ROOT);
});

afterAll(async () => {
  // No worker ever takes these agents: end them so the namespace holds no open workflow.
  for (const id of started) await client.workflow.getHandle(id).terminate('cli definition test over');
  await closeClient(client);
});

test('cairn run --definition support: the input is filled from the definition and carries its snapshot', async () => {
  const support = registry.get('support');
  const run = spawnCairn(
    ['run', 'How long do I have to return a parcel?', '--definition', 'support', '--model', 'other-model', '--json'],
    { CAIRN_AGENTS: EXAMPLES, CAIRN_TASK_QUEUE: uniqueId('cli-definitions') },
    { ownGroup: true },
  );
  run.input();
  const input = (await startedInput(client, await agentStartedBy(run, started))) as Record<string, unknown>;
  expect(input.definition).toEqual(support?.snapshot);
  // The instructions, then the language it answers in (support: en).
  expect(input.systemPrompt).toBe(`${support?.definition.instructions}\n\nWrite every answer in this language: en.`);
  expect(input.tools).toEqual(['read_file', 'list_files']);
  expect(input.mode).toEqual({ ask: true });
  expect(input.limits).toMatchObject({ maxReplans: 1, maxParallelSteps: 2 });
  // The model is overridable in support: the flag's name wins.
  expect(input.model).toMatchObject({ name: 'other-model' });
});

test('cairn run --definition: a mode the definition does not let a start change, or an unknown name, starts nothing', async () => {
  const env = { CAIRN_AGENTS: EXAMPLES, CAIRN_TASK_QUEUE: uniqueId('cli-definitions') };
  const mode = await runCairn(['run', 'Anything', '--definition', 'support', '--no-plan'], env);
  expect(mode.code).not.toBe(0);
  expect(mode.stderr).toContain('does not let a start change its mode');
  expect(mode.stdout + mode.stderr).not.toMatch(/agent \S+ started/);
  const unknown = await runCairn(['run', 'Anything', '--definition', 'no-such-agent'], env);
  expect(unknown.code).not.toBe(0);
  expect(unknown.stderr).toContain('no-such-agent');
  expect(unknown.stdout + unknown.stderr).not.toMatch(/agent \S+ started/);
});
