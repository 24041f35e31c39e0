/**
 * Prompt templates: every built-in renders to exactly the words the prompt functions sent before
 * they became templates (the frozen copies in data/legacy-prompts.ts), so kept histories replay;
 * each template declares exactly the variables its text uses; overrides are checked.
 */
import * as legacy from './data/legacy-prompts';
import { plannerSystemPrompt, plannerTaskMessage, summaryPrompt } from '../../workflows/model/agent/prompts';
import { stepSystemPrompt, stepTaskMessage } from '../../workflows/model/step/step-prompts';
import { ROUTER_SYSTEM_PROMPT } from '../../workflows/model/graph/route-reply';
import { placeholders, PROMPT_TEMPLATES, render } from '../../workflows/model/prompts/templates';
import { promptOverrideProblem } from '../../workflows/model/prompts/check-overrides';
import type { ToolInfo } from '../../workflows/model/tools/tool-types';

const tool = (name: string, effect: 'read' | 'write'): ToolInfo => ({
  name,
  description: `${name} does a thing`,
  effect,
  idempotent: effect === 'read',
  needsApproval: effect === 'write',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});
const toolSets: ToolInfo[][] = [[], [tool('read_file', 'read'), tool('write_file', 'write')]];
// A value holding a placeholder must be inserted as it is, never rendered again.
const extras = [undefined, '', 'Answer in French. {{tools}}'];
const tasks = ['Compare {{task}} two files', 'Plain task'];

describe('built-in templates render the old prompts exactly', () => {
  test('planner system prompt', () => {
    for (const tools of toolSets)
      for (const canAsk of [true, false])
        for (const extra of extras)
          expect(plannerSystemPrompt(tools, canAsk, extra)).toBe(legacy.plannerSystemPrompt(tools, canAsk, extra));
  });

  test('planner task message', () => {
    for (const task of tasks)
      for (const files of [undefined, [], ['a.txt'], ['a.txt', 'dir/b {{files}}.md']])
        expect(plannerTaskMessage(task, files)).toBe(legacy.plannerTaskMessage(task, files));
  });

  test('step system prompt, plan steps and graph nodes', () => {
    const nodes = [
      undefined,
      { id: 'n', visit: 1, systemPrompt: 'You review code.' },
      { id: 'n', visit: 2, systemPrompt: 'You grade {{tools}}.', output: { type: 'object' } },
    ];
    for (const tools of toolSets)
      for (const canAsk of [true, false])
        for (const extra of extras)
          for (const node of nodes)
            expect(stepSystemPrompt(tools, canAsk, extra, node)).toBe(
              legacy.stepSystemPrompt(tools, canAsk, extra, node),
            );
  });

  test('step task message', () => {
    const steps = [
      { id: 's1', title: 'Read', description: 'Read the file.', depends_on: [] },
      { id: 's2', title: 'Write {{title}}', description: '', depends_on: ['s1'], done_when: 'the file exists' },
    ];
    const dependencySets = [
      [],
      [
        { id: 's1', title: 'Read', result: 'It says {{result}}.' },
        { id: 's0', title: 'T', result: '' },
      ],
    ];
    for (const task of tasks)
      for (const step of steps)
        for (const deps of dependencySets)
          expect(stepTaskMessage(task, step, deps)).toBe(legacy.stepTaskMessage(task, step, deps));
  });

  test('summary prompt', () => {
    const resultSets = [
      [],
      [
        { id: 's1', title: 'Read', status: 'completed', result: 'Done {{status}}' },
        { id: 's2', title: 'Write', status: 'failed' },
      ],
    ];
    for (const task of tasks)
      for (const results of resultSets)
        expect(summaryPrompt(task, 'de', results)).toBe(legacy.summaryPrompt(task, 'de', results));
  });

  test('router system prompt', () => {
    expect(ROUTER_SYSTEM_PROMPT).toBe(legacy.ROUTER_SYSTEM_PROMPT);
  });
});

describe('templates', () => {
  test('each declares exactly the variables its text uses, under its own name', () => {
    for (const [name, template] of Object.entries(PROMPT_TEMPLATES)) {
      expect(template.name).toBe(name);
      expect([...placeholders(template.text)].sort()).toEqual([...template.variables].sort());
    }
  });

  test('render is one pass: a value holding a placeholder is kept as it is', () => {
    expect(render('step.dependency', { id: '{{title}}', title: 'T', result: 'R' })).toBe('## {{title}} · T\nR');
  });
});

describe('override check', () => {
  test('good overrides pass', () => {
    expect(promptOverrideProblem({})).toBeUndefined();
    expect(promptOverrideProblem({ 'planner.system': 'Plan it. {{ask_rule}} Tools: {{tools}}' })).toBeUndefined();
    expect(promptOverrideProblem({ 'router.system': 'Route it.' })).toBeUndefined();
  });

  test('an unknown template is named', () => {
    const problem = promptOverrideProblem({ 'planner.sytem': 'x' });
    expect(problem).toMatch(/^unknown prompt template "planner\.sytem" \(known: .*planner\.system/);
  });

  test('an undeclared variable is named with the template', () => {
    expect(promptOverrideProblem({ 'planner.system': '{{ask_rule}} {{tools}} {{task}}' })).toBe(
      'prompt template "planner.system" has no variable {{task}} (it declares {{ask_rule}}, {{tools}})',
    );
    expect(promptOverrideProblem({ 'router.system': 'Route {{node}}' })).toBe(
      'prompt template "router.system" has no variable {{node}} (it declares none)',
    );
  });

  test('a required variable left out is named with the template', () => {
    expect(promptOverrideProblem({ 'step.task': '{{task}} {{step_id}} {{step_title}}' })).toBe(
      'prompt template "step.task" leaves out its required variable {{step_description}}',
    );
  });

  test('every problem is one line', () => {
    const bad: Record<string, string>[] = [
      { nope: 'x' },
      { 'step.system': 'no tools' },
      { 'step.system': '{{tools}}{{x}}' },
    ];
    for (const overrides of bad) expect(promptOverrideProblem(overrides)).not.toMatch(/\n/);
  });
});
