/**
 * The web page's form checks are the agent's form rules: `/web/rules.js`, as the server serves
 * it, is run in a separate Node process (a browser ES module, imported as such) on a table of
 * fields and values, and must give what workflows/model/interactions/validate-form.ts gives — the
 * same verdict, the same normalised value, the same message. Its terminal phases are the list.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FormField } from '../../workflows/model/interactions/interaction-types';
import { validateFormValues } from '../../workflows/model/interactions/validate-form';
import { TERMINAL_PHASES } from '../../workflows/model/state/agent-phases';
import { unusedAgents } from '../harness/config-errors';
import { appOver } from '../harness/http-app';

const agents = unusedAgents('no agent route is called');

const text: FormField = { key: 'who', label: 'Who', type: 'input', required: true, maxLength: 5 };
const pages: FormField = { key: 'pages', label: 'Pages', type: 'number', required: false, min: 1, max: 20, default: 2 };
const tone: FormField = { key: 'tone', label: 'Tone', type: 'select', required: true, options: ['a', 'b'] };
const parts: FormField = { key: 'parts', label: 'Parts', type: 'multiselect', required: true, options: ['a', 'b'] };
const draft: FormField = { key: 'draft', label: 'Draft', type: 'boolean', required: false };
const due: FormField = { key: 'due', label: 'Due', type: 'date', required: false };

/** Field and value pairs, every rule passed and broken at least once. */
const CASES: [FormField, unknown][] = [
  [text, ''],
  [text, '   '],
  [text, ' abc '],
  [text, 'abcdefg'],
  [text, 7],
  [pages, 0],
  [pages, 21],
  [pages, 3],
  [pages, 'x'],
  [pages, ''],
  [pages, undefined],
  [tone, 'a'],
  [tone, 'z'],
  [tone, ''],
  [parts, []],
  [parts, ['a', 'a']],
  [parts, ['a', 'z']],
  [parts, ['b', 'a']],
  [draft, false],
  [draft, 'yes'],
  [due, '2024-02-29'],
  [due, '2023-02-29'],
  [due, '2024-13-01'],
  [due, 'tomorrow'],
];

/** What the workflow rules say about one field's value: the value kept, or the message. */
function workflowVerdict(field: FormField, value: unknown): unknown {
  const checked = validateFormValues([field], value === undefined ? {} : { [field.key]: value });
  if (checked.ok) return { ok: true, value: checked.values[field.key] };
  return { ok: false, error: checked.errors.map((e) => e.replace(`values.${field.key}: `, '')).join('; ') };
}

test('/web/rules.js checks form fields exactly as the workflow rules do', async () => {
  const app = appOver(agents);
  const res = await app.request('/web/rules.js');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  const dir = mkdtempSync(join(tmpdir(), 'web-rules-'));
  try {
    writeFileSync(join(dir, 'rules.mjs'), await res.text());
    // undefined does not survive JSON: send it as an absent `value`.
    const input = JSON.stringify(CASES.map(([field, value]) => (value === undefined ? { field } : { field, value })));
    const script = [
      "import { checkFormField, TERMINAL_PHASES } from './rules.mjs';",
      `const cases = ${input};`,
      'const verdicts = cases.map((c) => checkFormField(c.field, c.value));',
      'console.log(JSON.stringify({ verdicts, terminal: TERMINAL_PHASES }));',
    ].join('\n');
    writeFileSync(join(dir, 'run.mjs'), script);
    const out = JSON.parse(execFileSync(process.execPath, [join(dir, 'run.mjs')], { encoding: 'utf8' })) as {
      verdicts: unknown[];
      terminal: string[];
    };
    const expected = CASES.map(([field, value]) => workflowVerdict(field, value));
    expect(out.verdicts).toEqual(expected);
    // Both verdicts appear, or the table would prove little.
    expect(expected.filter((v) => (v as { ok: boolean }).ok)).toHaveLength(8);
    expect(out.terminal).toEqual([...TERMINAL_PHASES]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
