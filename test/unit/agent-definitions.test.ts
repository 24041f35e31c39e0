/**
 * Agent definitions (client/definitions): checked where written with each problem's path, a
 * version that is the digest of the resolved content, a registry that resolves `agent:<name>`
 * references into self-contained snapshots and refuses cycles and deep nesting, and the merge
 * rules of a start — it may only narrow.
 */
import { defineAgent, DefinitionError } from '../../cairn';
import { applyDefinition } from '../../client/definitions/apply-definition';
import { checkDefinition } from '../../client/definitions/define-agent';
import {
  builtInDefinition,
  createDefinitionRegistry,
  DEFAULT_DEFINITION,
  MAX_SNAPSHOT_BYTES,
} from '../../client/definitions/definition-registry';
import { canonicalJson, definitionVersion } from '../../client/definitions/definition-version';
import { PROMPT_TEMPLATES } from '../../workflows/model/prompts/templates';

const support = defineAgent({
  name: 'support',
  description: 'Answers customers',
  instructions: 'Be kind.',
  tools: ['read_file', 'write_file'],
  model: { name: 'small', temperature: 0.2, stages: { plan: { stop: ['END'], toolChoice: 'none' } } },
  limits: { maxReplans: 1, maxParallelSteps: 2 },
  overridable: ['model'],
});

test('each invalid field is refused with its path', () => {
  const checked = checkDefinition({
    name: 'Support Bot',
    description: '',
    model: { endpoint: 'Not OK', stages: { plan: { toolChoice: 'sometimes' } } },
    limits: { maxParallelSteps: 0 },
    mode: { graph: '' },
    overridable: ['tools'],
    colour: 'blue',
    prompts: { templates: { 'step.system': 'Work carefully with {{tool_list}}.' } },
  });
  expect(checked.ok).toBe(false);
  const paths = checked.ok ? [] : checked.issues.map((i) => i.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'name',
      'description',
      'model.endpoint',
      'model.stages.plan.toolChoice',
      'limits.maxParallelSteps',
      'mode',
      'overridable.0',
      '(definition)',
      'prompts.templates',
    ]),
  );
  // Checked as the operator's prompt file is: the template's variables, exactly.
  const message = checked.ok ? '' : checked.issues.find((i) => i.path === 'prompts.templates')?.message;
  expect(message).toContain('has no variable {{tool_list}}');
  expect(() => defineAgent({ name: 'x-', description: 'd' })).toThrow(DefinitionError);
  expect(() => defineAgent({ name: 'a'.repeat(65), description: 'd' })).toThrow(/name: lower-case letters/);
  expect(checkDefinition({ name: 'a'.repeat(64), description: 'd' }).ok).toBe(true);
});

test('the version is the digest of the content: key order does not matter, a change does, the label does not', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: undefined } })).toBe(
    '{"a":{"d":[1,{"e":3,"f":2}]},"b":1}',
  );
  const one = createDefinitionRegistry([support]).get('support')?.snapshot;
  const reordered = createDefinitionRegistry([{ ...support, tools: ['read_file', 'write_file'], label: 'v2' }]).get(
    'support',
  )?.snapshot;
  expect(reordered?.version).toBe(one?.version);
  expect(reordered?.label).toBe('v2');
  const changed = createDefinitionRegistry([{ ...support, instructions: 'Be brief.' }]).get('support')?.snapshot;
  expect(changed?.version).not.toBe(one?.version);
  expect(one?.version).toMatch(/^[0-9a-f]{64}$/);
});

test("the built-in default's content holds the built-in templates, so its version follows them", () => {
  const builtIn = createDefinitionRegistry([]).get(DEFAULT_DEFINITION);
  expect(builtIn?.snapshot.content).toMatchObject({
    prompts: { templates: { 'planner.system': PROMPT_TEMPLATES['planner.system'].text } },
  });
  const edited = builtInDefinition();
  const templates = { ...edited.prompts?.templates, 'planner.system': 'other words' };
  expect(definitionVersion({ ...edited, prompts: { templates } })).not.toBe(builtIn?.snapshot.version);
});

test('agent:<name> references resolve into the snapshot; unknown, cyclic, deep and duplicate ones are refused', () => {
  const research = defineAgent({ name: 'research', description: 'Finds things', tools: ['http_fetch'] });
  const lead = defineAgent({ name: 'lead', description: 'Leads', tools: ['agent:research'] });
  const snapshot = createDefinitionRegistry([research, lead]).get('lead')?.snapshot;
  expect(snapshot?.content).toMatchObject({ agents: { research: { name: 'research', tools: ['http_fetch'] } } });
  const a = (name: string, ref?: string) =>
    defineAgent({ name, description: name, ...(ref ? { tools: [`agent:${ref}`] } : {}) });
  expect(() => createDefinitionRegistry([a('lead', 'ghost')])).toThrow(/names agent:ghost, which is not defined/);
  expect(() => createDefinitionRegistry([a('x', 'y'), a('y', 'x')])).toThrow(/cycle: x → y → x/);
  expect(() => createDefinitionRegistry([a('d0', 'd1'), a('d1', 'd2'), a('d2', 'd3'), a('d3')])).not.toThrow();
  expect(() => createDefinitionRegistry([a('d0', 'd1'), a('d1', 'd2'), a('d2', 'd3'), a('d3', 'd4'), a('d4')])).toThrow(
    /nest deeper than 3/,
  );
  expect(() => createDefinitionRegistry([support, support])).toThrow(/defined twice/);
  const huge = defineAgent({ name: 'huge', description: 'h', instructions: 'x'.repeat(20_000), files: [] });
  const many = Array.from({ length: 14 }, (_, i) => a(`h${i}`));
  const wide = defineAgent({
    name: 'wide',
    description: 'w',
    tools: many.map((d) => `agent:${d.name}`),
  });
  expect(MAX_SNAPSHOT_BYTES).toBe(256 * 1024);
  const bulky = many.map((d) => ({ ...d, instructions: 'x'.repeat(19_000) }));
  expect(() => createDefinitionRegistry([huge, wide, ...bulky])).toThrow(/over 262144/);
});

test('a start may only narrow: instructions first, tools among the definition, limits lower, model and mode where overridable', () => {
  const registered = createDefinitionRegistry([support]).get('support');
  if (!registered) throw new Error('no support');
  const merged = applyDefinition(registered, { task: 't', systemPrompt: 'Answer in French.', tools: ['read_file'] });
  expect(merged).toMatchObject({
    ok: true,
    fields: {
      systemPrompt: 'Be kind.\n\nAnswer in French.',
      tools: ['read_file'],
      model: { name: 'small', temperature: 0.2 },
      limits: { maxReplans: 1, maxParallelSteps: 2 },
      definition: { name: 'support', version: registered.snapshot.version },
    },
  });
  expect(applyDefinition(registered, { model: { name: 'large' } })).toMatchObject({
    ok: true,
    fields: { model: { name: 'large' } },
  });
  const refused = applyDefinition(registered, {
    tools: ['shell'],
    limits: { maxReplans: 2, maxParallelSteps: 1 },
    mode: { plan: false },
  });
  expect(refused).toEqual({
    ok: false,
    problems: [
      { field: 'limits.maxReplans', message: 'may only be lowered: definition support sets 1' },
      { field: 'tools', message: "shell is not among definition support's tools" },
      { field: 'mode', message: 'definition support does not let a start change its mode' },
    ],
  });
});
