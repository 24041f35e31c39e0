/**
 * The CLI's terminal boundary (client/cli/terminal.ts): every control character a terminal acts
 * on — ESC and CSI/OSC sequences (7- and 8-bit), BEL, CR, backspace, DEL, bidi overrides — is
 * spelled out, newlines and tabs stay, and JSON stays the same JSON. The prompts (tty-prompter.ts)
 * show a model's question, choices and defaults spelled out while the choice's value comes back
 * as it was. `cairn ls` has a header. (Every command as a process: test/e2e/cli-terminal-escapes.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type { AgentSummary } from '../../client/agents/agent-client';
import { formatAgentList } from '../../client/agents/cli/render';
import { terminalSafe } from '../../client/cli/terminal';

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const EVIL = 'A\x1b[2J\x1b[1;1HB\x1b]8;;http://evil/\x07C\x9b31mD\x9d0;t\x07E\rF';

test('control sequences are spelled out as JSON writes them; newline and tab stay', () => {
  expect(terminalSafe(EVIL)).toBe(
    'A\\u001b[2J\\u001b[1;1HB\\u001b]8;;http://evil/\\u0007C\\u009b31mD\\u009d0;t\\u0007E\\rF',
  );
  expect(terminalSafe('a\bb\fc\x7fd\u202ee\u2066f\x00g')).toBe('a\\bb\\fc\\u007fd\\u202ee\\u2066f\\u0000g');
  expect(terminalSafe('line one\n\tline two')).toBe('line one\n\tline two');
  expect(terminalSafe('plain ünïcödé → ✓')).toBe('plain ünïcödé → ✓');
});

test('nothing raw is left, for any text', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => !RAW.test(terminalSafe(text))));
});

test('JSON through the boundary is still JSON, with the same values', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
      const json = JSON.stringify({ value, text }, null, 2);
      expect(JSON.parse(terminalSafe(json))).toEqual(JSON.parse(json));
    }),
  );
});

/**
 * Drives a TtyPrompter on fake streams in a separate process (the prompt library is an ES module
 * jest cannot load), as bin/cairn.js runs the CLI: with tsx's loader. Returns what it drew and
 * what each prompt returned.
 */
function runPrompts(): { drawn: string; chosen: string; typed: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-prompts-'));
  const script = join(dir, 'prompts.ts');
  const prompter = join(__dirname, '..', '..', 'client', 'cli', 'tty-prompter');
  writeFileSync(
    script,
    `
import { PassThrough, Writable } from 'node:stream';
import { TtyPrompter } from ${JSON.stringify(prompter)};
const EVIL = ${JSON.stringify(EVIL)};
let drawn = '';
/** A terminal per prompt (the library ends its streams when a prompt closes), wide enough not to wrap. */
function terminal() {
  const output = Object.assign(new Writable({ write(chunk, _e, done) { drawn += chunk.toString(); done(); } }), {
    columns: 1000,
  });
  const input = new PassThrough();
  return { term: new TtyPrompter(output, input), press: (keys: string) => input.write(keys) };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
async function main() {
  const one = terminal();
  one.term.show('plan: ' + EVIL);
  const chosen = one.term.select('question ' + EVIL, [{ value: 'option ' + EVIL }, { value: 'other' }]);
  await tick();
  one.press('\\r');
  const first = await chosen;
  const two = terminal();
  const typed = two.term.text('ask ' + EVIL, { default: 'default ' + EVIL });
  await tick();
  two.press('\\r');
  process.stdout.write(JSON.stringify({ drawn, chosen: first, typed: await typed }));
}
void main();
`,
  );
  const loader = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;
  try {
    const out = execFileSync(process.execPath, ['--import', loader, script], { encoding: 'utf8', timeout: 30_000 });
    return JSON.parse(out) as { drawn: string; chosen: string; typed: string };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the prompts show the question, the choices and the shown text spelled out; the value comes back as it was', () => {
  const { drawn, chosen, typed } = runPrompts();
  expect(chosen).toBe(`option ${EVIL}`);
  // What Enter takes is what was on the screen.
  expect(typed).toBe(terminalSafe(`default ${EVIL}`));
  for (const shown of ['plan: ', 'question ', 'option ', 'ask ', 'default ']) {
    expect(drawn).toContain(`${shown}${terminalSafe(EVIL)}`);
  }
  // The library's own drawing uses ESC; the text's sequences never reach the terminal.
  for (const sequence of ['\x1b[2J', '\x1b[1;1H', '\x1b]8;;', '\x9b', '\x9d', '\x07', '\rF']) {
    expect(drawn).not.toContain(sequence);
  }
});

test('cairn ls has a header over aligned columns', () => {
  const agent = (id: string, extra: Partial<AgentSummary> = {}): AgentSummary => ({
    id,
    task: `task of ${id}`,
    phase: 'executing',
    awaitingInput: false,
    status: 'RUNNING',
    ...extra,
  });
  const lines = formatAgentList([
    agent('agent-a-1', { startedAt: '2026-11-26T10:00:00.000Z', spend: { tokens: 10, costUsd: null } }),
    agent('agent-bb-22', { phase: 'awaiting_input', awaitingInput: true }),
  ]).split('\n');
  expect(lines[0]).toMatch(/^ID +PHASE +STATUS +STARTED +SPEND +TASK$/);
  const column = (name: string) => lines[0]?.indexOf(name) ?? -1;
  expect(lines[1]?.indexOf('executing')).toBe(column('PHASE'));
  expect(lines[2]?.indexOf('awaiting_input*')).toBe(column('PHASE'));
  expect(lines[1]?.indexOf('task of agent-a-1')).toBe(column('TASK'));
  expect(lines[2]?.indexOf('task of agent-bb-22')).toBe(column('TASK'));
  expect(lines[1]?.indexOf('2026-11-26 10:00:00')).toBe(column('STARTED'));
  expect(lines.at(-1)).toBe('(* waiting for input)');
  expect(formatAgentList([])).toBe('no agents');
});
