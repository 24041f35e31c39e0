/**
 * A prompt overrides file is read and checked whole: good texts are returned and change what
 * the prompt functions render; a bad file (unreadable, not JSON, not an object of strings, an
 * unknown template, a wrong variable) gives one line naming the file and the problem.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPromptsFile } from '../../config/prompts-config';
import { plannerSystemPrompt, summaryPrompt } from '../../workflows/model/agent/prompts';
import { stepSystemPrompt } from '../../workflows/model/step/step-prompts';
import { render } from '../../workflows/model/prompts/templates';
import { toolCatalogue } from '../../workflows/model/tools/tool-catalogue';
import type { ToolInfo } from '../../workflows/model/tools/tool-types';

const dir = mkdtempSync(join(tmpdir(), 'cairn-prompts-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

test('good overrides replace the templates they name, and only those', () => {
  const path = file(
    'good.json',
    JSON.stringify({ 'planner.system': 'PLAN. {{ask_rule}} TOOLS: {{tools}}', 'step.can_ask': 'ASK IF STUCK.' }),
  );
  const loaded = loadPromptsFile(path);
  if (!('texts' in loaded)) throw new Error(loaded.problem);
  const tools: ToolInfo[] = [
    {
      name: 'read_file',
      description: 'Reads a file',
      effect: 'read',
      idempotent: true,
      needsApproval: false,
      parameters: {},
    },
  ];
  expect(plannerSystemPrompt(tools, false, 'Be brief.', loaded.texts)).toBe(
    `PLAN. ${render('planner.cannot_ask')} TOOLS: ${toolCatalogue(tools)}\n\n${render('operator.instructions', { instructions: 'Be brief.' })}`,
  );
  expect(stepSystemPrompt([], true, undefined, undefined, loaded.texts)).toMatch(/\n\nASK IF STUCK\.$/);
  // A template not in the file keeps its built-in words.
  expect(summaryPrompt('T', 'en', [], loaded.texts)).toBe(summaryPrompt('T', 'en', []));
});

test.each([
  ['unknown template', JSON.stringify({ 'planner.sytem': 'x' }), /unknown prompt template "planner\.sytem"/],
  [
    'undeclared variable',
    JSON.stringify({ 'step.system': '{{tools}} {{task}}' }),
    /"step\.system" has no variable \{\{task\}\}/,
  ],
  [
    'left-out variable',
    JSON.stringify({ 'planner.system': '{{tools}}' }),
    /"planner\.system" leaves out its required variable \{\{ask_rule\}\}/,
  ],
  ['not JSON', '{ nope', /: not JSON: /],
  ['not an object of strings', JSON.stringify({ 'step.system': 3 }), /must be a JSON object of template name → text/],
])('a bad file (%s) gives one line naming the file', (name, text, expected) => {
  const path = file(`${name}.json`, text);
  const loaded = loadPromptsFile(path);
  if (!('problem' in loaded)) throw new Error('the file was accepted');
  expect(loaded.problem).toMatch(expected);
  expect(loaded.problem.startsWith(`CAIRN_PROMPTS_FILE (${path}): `)).toBe(true);
  expect(loaded.problem).not.toMatch(/\n/);
});

test('an unreadable file gives one line', () => {
  const loaded = loadPromptsFile(join(dir, 'missing.json'));
  expect('problem' in loaded && loaded.problem).toMatch(/^CAIRN_PROMPTS_FILE \(.*missing\.json\): cannot read it: /);
});
