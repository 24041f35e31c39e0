/**
 * The `CAIRN_AGENTS` module (docs/definitions.md): the loader reads its default array — each
 * definition checked again, a broken one refused naming the module, the definition and each
 * field's path; an endpoint the process does not know, a cycle, no module at all — and a start's
 * `definition` (a name) resolves into the input with the snapshot, refusals naming their field.
 */
import { join } from 'node:path';
// First: the HTTP app sets zod up for OpenAPI before the CLI's client (definitions-command) builds its schemas.
import { serveApi } from '../../client/http/serve-api';
import { ClientError } from '../../client/client-error';
import { createDefinitionRegistry, DEFAULT_DEFINITION } from '../../client/definitions/definition-registry';
import { defineAgent } from '../../cairn';
import {
  DefinitionModuleError,
  knownEndpoints,
  loadDefinitionRegistry,
} from '../../client/definitions/load-definitions';
import { withDefinition } from '../../client/definitions/resolve-definition';
import { formatDefinitions } from '../../client/definitions/cli/definitions-command';
import { definitionSummary } from '../../client/definitions/definition-summary';
import { loadConfig } from '../../config/config';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = 'examples/agents/index.ts';

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection');
  return outcome;
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('loadDefinitionRegistry', () => {
  test('no module: the built-in default alone', async () => {
    const registry = await loadDefinitionRegistry(undefined, ROOT);
    expect(registry.list().map((d) => d.definition.name)).toEqual([DEFAULT_DEFINITION]);
  });

  test('the examples module: support and research, then the built-in default', async () => {
    const registry = await loadDefinitionRegistry(EXAMPLES, ROOT);
    expect(registry.list().map((d) => d.definition.name)).toEqual(['support', 'research', DEFAULT_DEFINITION]);
    expect(registry.get('support')?.snapshot.label).toBe('handbook v1');
  });

  test('CAIRN_AGENTS names the module', () => {
    expect(loadConfig({ CAIRN_AGENTS: EXAMPLES }, ROOT).definitions).toEqual({ module: EXAMPLES });
    expect(loadConfig({}, ROOT).definitions).toEqual({});
  });

  test('a broken definition stops the load: module, definition and each field named', async () => {
    const path = 'test/fixtures/agents/broken-definition.ts';
    const err = await rejectionOf(loadDefinitionRegistry(path, ROOT));
    expect(err).toBeInstanceOf(DefinitionModuleError);
    expect(err.message).toContain(`agent definition module "${path}" (CAIRN_AGENTS), definition "broken" (default[1])`);
    expect(err.message).toContain('\n  model.stages.plan.toolChoice: ');
    expect(err.message).toContain('\n  limits.maxParallelSteps: ');
    expect(err.message).toContain('\n  (definition): ');
    expect(err.message).not.toContain('"fine"');
  });

  test('an endpoint the process does not know is refused at load, naming the field', async () => {
    const path = 'test/fixtures/agents/unknown-endpoint.ts';
    const err = await rejectionOf(loadDefinitionRegistry(path, ROOT));
    expect(err.message).toContain('definition "far" (default[0])');
    expect(err.message).toContain('model.endpoint: no model endpoint "elsewhere" is known here (known: default)');
    // A process that serves it loads it: one whose CAIRN_LLM_ENDPOINTS names it.
    const endpoints = JSON.stringify([{ name: 'elsewhere', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }]);
    const config = loadConfig({ CAIRN_LLM_ENDPOINTS: endpoints });
    expect(knownEndpoints(config)).toEqual(['default', 'elsewhere']);
    const registry = await loadDefinitionRegistry(path, ROOT, knownEndpoints(config));
    expect(registry.get('far')).toBeDefined();
  });

  test('definitions naming each other in a cycle are refused; a missing or arrayless module says so', async () => {
    const cycle = await rejectionOf(loadDefinitionRegistry('test/fixtures/agents/cycle.ts', ROOT));
    expect(cycle.message).toContain(
      '(CAIRN_AGENTS): agent definitions refer to each other in a cycle: ping → pong → ping',
    );
    const missing = 'test/fixtures/agents/no-such-module.ts';
    expect((await rejectionOf(loadDefinitionRegistry(missing, ROOT))).message).toContain(
      `agent definition module "${missing}" (CAIRN_AGENTS) not found`,
    );
    const arrayless = 'examples/agents/support.ts';
    expect((await rejectionOf(loadDefinitionRegistry(arrayless, ROOT))).message).toContain(
      'must export a default array of definitions',
    );
  });
});

test('the HTTP server refuses to start with a broken definition module, before it connects or listens', async () => {
  const config = loadConfig(
    { CAIRN_AGENTS: 'test/fixtures/agents/broken-definition.ts', TEMPORAL_ADDRESS: '127.0.0.1:1' },
    ROOT,
  );
  const err = await rejectionOf(serveApi(config, { info: () => {}, error: () => {} }));
  expect(err).toBeInstanceOf(DefinitionModuleError);
  expect(err.message).toContain('model.stages.plan.toolChoice');
});

describe('withDefinition', () => {
  test('a name fills the input from the definition and adds the snapshot; the result is a valid input', async () => {
    const registry = await loadDefinitionRegistry(EXAMPLES, ROOT);
    const research = registry.get('research');
    const input = withDefinition({ task: 'Find the sources', definition: 'research', tools: ['http_fetch'] }, registry);
    expect(input).toEqual({
      task: 'Find the sources',
      systemPrompt: research?.definition.instructions,
      mode: { plan: true, verifySteps: true },
      tools: ['http_fetch'],
      limits: { maxParallelSteps: 3 },
      definition: research?.snapshot,
    });
    expect(parseAgentInput(input).ok).toBe(true);
    // The version the start names must be the registered one.
    const version = research?.snapshot.version ?? '';
    expect(withDefinition({ task: 't', definition: 'research', definitionVersion: version }, registry)).toMatchObject({
      definition: { version },
    });
  });

  test('a definition whose mode is a graph starts that graph by name, with no planning mode', () => {
    const registry = createDefinitionRegistry([
      defineAgent({ name: 'triage', description: 'Routes reports', mode: { graph: 'router' } }),
    ]);
    const input = withDefinition({ task: 'A bug report', definition: 'triage' }, registry);
    expect(input).toMatchObject({ graphName: 'router', definition: { name: 'triage' } });
    expect(input.mode).toBeUndefined();
    const err = thrownBy(() => withDefinition({ task: 't', definition: 'triage', graphName: 'other' }, registry));
    expect(err).toMatchObject({ code: 'INVALID_INPUT', field: 'graph' });
  });

  test('a start without a definition goes as it is; an unknown one is INVALID_INPUT on definition', async () => {
    const registry = await loadDefinitionRegistry(EXAMPLES, ROOT);
    const plain = { task: 'As it is', tools: ['read_file'] };
    expect(withDefinition(plain, registry)).toBe(plain);
    const err = thrownBy(() => withDefinition({ task: 't', definition: 'nobody' }, registry));
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', field: 'definition' });
    expect((err as Error).message).toContain('known: support, research, cairn');
  });
});

test('cairn definitions: one line each with the short version; a hint when only the built-in is known', async () => {
  const registry = await loadDefinitionRegistry(EXAMPLES, ROOT);
  const text = formatDefinitions(registry.list().map(definitionSummary));
  const support = registry.get('support')?.snapshot.version.slice(0, 12) ?? '';
  expect(text.split('\n')[0]).toBe(
    `support   ${support}  (handbook v1) Answers customer questions from the handbook in the workspace, kindly and briefly.`,
  );
  expect(text).not.toContain('CAIRN_AGENTS');
  const alone = formatDefinitions((await loadDefinitionRegistry(undefined, ROOT)).list().map(definitionSummary));
  expect(alone).toContain('name a module of defineAgent definitions in CAIRN_AGENTS');
});
