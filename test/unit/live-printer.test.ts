/**
 * The CLI's live printer (client/live/cli/live-printer.ts) and its approval preview (render.ts): a
 * superseded attempt is followed by `[retrying…]` and the retry's text, an older attempt's late
 * items are not printed, reasoning only when asked for, timeline lines on lines of their own; an
 * approval shows each argument, a file's text with its line breaks, and the diff when the worker sent one.
 */
import { HELD_MAX_CHARS, LivePrinter } from '../../client/live/cli/live-printer';
import { formatApproval } from '../../client/agents/cli/render';
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

test('while a prompt is open nothing is printed; what came meanwhile follows once it is answered', () => {
  const printer = new LivePrinter('out');
  const before = stdoutOf(() => {
    printer.event(delta(1, 'Half a sente'));
    printer.hold();
  });
  // The half-printed line is ended before the prompt shows.
  expect(before).toBe('[s1]\nHalf a sente\n');
  const during = stdoutOf(() => {
    printer.event(delta(1, 'nce, then the rest.'));
    printer.line('s1 finished');
  });
  expect(during).toBe('');
  const after = stdoutOf(() => printer.release());
  expect(after).toBe('[s1]\nnce, then the rest.\ns1 finished\n');
  // Released: it prints as it comes again.
  expect(stdoutOf(() => printer.line('next'))).toBe('next\n');
});

test('held output past its bound keeps the newest and says how much it left out', () => {
  const printer = new LivePrinter('out');
  const chunk = 'x'.repeat(1024);
  const count = HELD_MAX_CHARS / chunk.length + 8;
  stdoutOf(() => {
    printer.event(delta(1, ''));
    printer.hold();
  });
  stdoutOf(() => {
    for (let i = 0; i < count; i++) printer.event(delta(1, chunk));
  });
  const after = stdoutOf(() => printer.release());
  const [notice, ...rest] = after.split('\n');
  const left = Number(/^\[… (\d+) characters of live output left out while you answered …\]$/.exec(notice ?? '')?.[1]);
  expect(left).toBeGreaterThan(0);
  // Nothing lost but what the notice counts: the kept text and the dropped add up to all that came.
  expect(left + rest.join('\n').length).toBe('[s1]\n'.length + count * chunk.length);
  expect(rest.join('\n').length).toBeLessThanOrEqual(HELD_MAX_CHARS);
});

test('a notice on stderr comes after the half-printed live line is ended, never glued to it', () => {
  const written: [string, string][] = [];
  const spies = (['stdout', 'stderr'] as const).map((name) =>
    jest.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push([name, String(chunk)]);
      return true;
    }),
  );
  try {
    const printer = new LivePrinter('out');
    printer.event(delta(1, 'Half a sente'));
    printer.notice('i1 answered');
    printer.event(delta(1, 'nce.'));
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
  expect(written).toEqual([
    ['stdout', '[s1]\n'],
    ['stdout', 'Half a sente'],
    ['stdout', '\n'],
    ['stderr', 'i1 answered\n'],
    ['stdout', '[s1]\n'],
    ['stdout', 'nce.'],
  ]);
});

test('a plan written as JSON is not printed raw: one line says it is being written', () => {
  const plan = { agentId: 'a', modelCallId: 'a/plan/1', purpose: 'plan', attempt: 1, channel: 'text' };
  const said = { agentId: 'a', modelCallId: 'a/plan/2', purpose: 'replan', attempt: 1, channel: 'text' };
  const out = stdoutOf(() => {
    const printer = new LivePrinter('out');
    for (const text of ['\n ', '{"steps":[{"id":"s1",', '"title":"Read"}]}'])
      printer.event({ offset: offset++, type: 'delta', data: { ...plan, text } });
    for (const text of [' ', 'The plan ', 'needs a step more.'])
      printer.event({ offset: offset++, type: 'delta', data: { ...said, text } });
  });
  expect(out).toBe('[planner] writing the plan (shown when it is done)\n[planner]\n The plan needs a step more.');
});

test('the final answer counts as printed only when its summary call streamed it whole', () => {
  const summary = { agentId: 'a', modelCallId: 'a/summary/1', purpose: 'summary', channel: 'text' };
  const said = (printer: LivePrinter, attempt: number, text: string) =>
    printer.event({ offset: offset++, type: 'delta', data: { ...summary, attempt, text } });
  stdoutOf(() => {
    const whole = new LivePrinter('out');
    said(whole, 1, 'All ');
    said(whole, 1, 'done.\n');
    expect(whole.printedAnswer('All done.')).toBe(true);
    expect(whole.printedAnswer('All done. Files: notes.md')).toBe(false);

    const retried = new LivePrinter('out');
    said(retried, 1, 'All done.');
    said(retried, 2, 'Done');
    expect(retried.printedAnswer('All done.')).toBe(false);

    const skipped = new LivePrinter('out');
    said(skipped, 1, 'All ');
    skipped.reset();
    said(skipped, 1, 'done.');
    expect(skipped.printedAnswer('All done.')).toBe(false);
    expect(new LivePrinter('out').printedAnswer('All done.')).toBe(false);
  });
});
