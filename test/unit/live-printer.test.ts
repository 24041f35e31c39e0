/**
 * The CLI's live printer (client/cli/live-printer.ts) and its approval preview (render.ts): a
 * superseded attempt is followed by `[retrying…]` and the retry's text, an older attempt's late
 * items are not printed, reasoning only when asked for, timeline lines on lines of their own; an
 * approval shows each argument, a file's text with its line breaks, and the diff when the worker sent one.
 */
import { LivePrinter } from '../../client/cli/live-printer';
import { formatApproval } from '../../client/cli/render';
import type { LiveEvent } from '../../client/live/live-events';

/** What `body` wrote to stdout. */
function stdoutOf(body: () => void): string {
  const written: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    body();
  } finally {
    spy.mockRestore();
  }
  return written.join('');
}

const call = { agentId: 'a', stepId: 's1', modelCallId: 'a/run/1', purpose: 'step' };
let offset = 0;
const delta = (attempt: number, text: string, channel = 'text'): LiveEvent => ({
  offset: offset++,
  type: 'delta',
  data: { ...call, attempt, channel, text },
});

test('a retry prints a marker and then its own text; a late item of the old attempt is left out', () => {
  const out = stdoutOf(() => {
    const printer = new LivePrinter('out');
    printer.event(delta(1, 'Partial wo'));
    printer.event({ offset: offset++, type: 'call.superseded', data: { ...call, attempt: 1, by: 2, at: 1 } });
    printer.event(delta(1, 'rds of the first attempt'));
    printer.event(delta(2, 'The retry'));
    printer.line('12:00:00 ▶ s1 started');
    printer.event(delta(2, "'s words."));
    printer.event({ offset: offset++, type: 'end', data: {} });
  });
  expect(out).toBe("[s1]\nPartial wo\n[retrying…]\n[s1]\nThe retry\n12:00:00 ▶ s1 started\n[s1]\n's words.\n");
});

test('reasoning is printed only when asked for, marked', () => {
  const events = [delta(1, 'hmm, think', 'reasoning'), delta(1, 'Answer.')];
  const quiet = stdoutOf(() => {
    const printer = new LivePrinter('out');
    events.forEach((e) => printer.event(e));
    printer.end();
  });
  expect(quiet).toBe('[s1]\nAnswer.\n');
  const loud = stdoutOf(() => {
    const printer = new LivePrinter('out', { reasoning: true });
    events.forEach((e) => printer.event(e));
    printer.end();
  });
  expect(loud).toBe('[reasoning] hmm, think\n[s1]\nAnswer.\n');
});

test("an approval shows each argument, a file's text with its line breaks", () => {
  const text = formatApproval({
    id: 'i1',
    kind: 'tool.approval',
    prompt: 'Allow write_file?',
    tool: 'write_file',
    arguments: { path: 'notes.md', content: 'line one\nline two\n' },
    digest: 'd',
    status: 'open',
    createdAt: 1,
  });
  expect(text).toBe('Tool write_file\n  arguments:\n    path: notes.md\n    content:\n      line one\n      line two');
});

test("an approval with the worker's preview shows the diff indented, or that the file is new", () => {
  const approval = (preview: unknown) =>
    formatApproval({
      id: 'i1',
      kind: 'tool.approval',
      prompt: 'Allow write_file?',
      tool: 'write_file',
      arguments: { path: 'notes.md', content: 'new\n' },
      digest: 'd',
      preview,
      status: 'open',
      createdAt: 1,
    } as Parameters<typeof formatApproval>[0]);
  const diff = '--- a/notes.md\n+++ b/notes.md\n@@ -1 +1 @@\n-old\n+new';
  expect(approval({ path: 'notes.md', change: 'diff', text: diff, cut: true })).toContain(
    '  diff:\n    --- a/notes.md\n    +++ b/notes.md\n    @@ -1 +1 @@\n    -old\n    +new\n    (the diff is cut here)\n  arguments:',
  );
  expect(approval({ path: 'notes.md', change: 'new' })).toContain('  change: new file notes.md\n');
});
