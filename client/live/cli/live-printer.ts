/**
 * Live output for `cairn run` and `cairn watch`: what the agent's model calls say, printed as it
 * forms (docs/contracts.md#live-output). Each call's text starts on a line of its own under a
 * heading (`[planner]`, `[s1]`, `[answer]`); tool calls print as `⚙ name {arguments…}` while their
 * arguments form; reasoning is left out unless asked for (then marked `[reasoning]`). A retried
 * call prints `[retrying…]` and then the retry's text, so a failed attempt's partial text is never
 * mistaken for the reply. Timeline lines printed meanwhile go through {@link line}, which ends a
 * half-printed line first. While a person answers a prompt ({@link hold}) nothing is printed: what
 * comes meanwhile is kept (its last HELD_MAX_CHARS) and printed once the prompt is done, so the
 * text of steps still streaming never runs into the question or the person's typing. Everything
 * leaves through terminal.ts: escapes in model text are shown, never obeyed.
 */
import { z } from 'zod';
import type { LiveEvent } from '../live-events';
import type { LiveListener } from '../live-hub';
import { write, type Channel } from '../../cli/terminal';

const callSchema = z.looseObject({
  modelCallId: z.string(),
  attempt: z.number(),
  purpose: z.string(),
  stepId: z.string().optional(),
});
const deltaSchema = callSchema.extend({
  channel: z.enum(['text', 'reasoning', 'tool']),
  text: z.string(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
});

/** The most held output kept while a prompt is open; older held output is dropped and said so. */
export const HELD_MAX_CHARS = 64 * 1024;

export interface LivePrinterOptions {
  /** Print reasoning too (marked `[reasoning]`); left out by default. */
  reasoning?: boolean;
}

/** Prints one agent's live output on `channel`; its methods are a {@link LiveListener}. */
export class LivePrinter implements LiveListener {
  /** The attempt shown of each call: items of older attempts are not printed. */
  private readonly attempts = new Map<string, number>();
  /** Where the cursor is: which call, channel and tool call the last text belonged to. */
  private current: string | undefined;
  private midLine = false;
  /** The text received of the summary call's shown attempt: the final answer, as it streamed. */
  private answer: { key: string; text: string } | undefined;
  /** Whether any output was skipped (the stream skipped ahead) or dropped (while a prompt was open). */
  private lostAny = false;
  /** Each planning call's text while undecided (see {@link printable}), then whether it is JSON. */
  private readonly planTexts = new Map<string, string | { json: boolean }>();
  private finished = false;
  /** Output kept while a prompt is open (undefined when not holding), and how much of it was dropped. */
  private held: string[] | undefined;
  private heldChars = 0;
  private droppedChars = 0;
  private readonly done: Promise<void>;
  private settle = () => {};

  constructor(
    private readonly channel: Channel,
    private readonly options: LivePrinterOptions = {},
  ) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  /** Settles once the stream has ended. */
  get ended(): Promise<void> {
    return this.done;
  }

  event(event: LiveEvent): void {
    if (event.type === 'end') return this.end();
    const call = callSchema.safeParse(event.data);
    if (!call.success) return;
    const { modelCallId, attempt } = call.data;
    const shown = this.attempts.get(modelCallId) ?? 0;
    if (event.type === 'call.superseded') {
      if (shown === attempt) this.retrying(modelCallId, Number(event.data.by ?? attempt + 1));
      return;
    }
    if (attempt < shown) return;
    if (shown !== 0 && attempt > shown) this.retrying(modelCallId, attempt);
    this.attempts.set(modelCallId, attempt);
    if (event.type !== 'delta') return;
    const delta = deltaSchema.safeParse(event.data);
    if (delta.success) this.delta(delta.data);
  }

  reset(): void {
    this.lostAny = true;
    // What was dropped belongs to finished calls; what they said is in the state.
    this.line('[live output skipped ahead]');
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.breakLine();
    this.settle();
  }

  /** Prints a line of its own (a timeline event), ending a half-printed line first. */
  line(text: string): void {
    this.breakLine();
    this.current = undefined;
    this.out(`${text}\n`);
  }

  /**
   * Whether `answer` (the agent's final answer) was printed in full as the live text of its
   * summary call, nothing skipped or dropped — so `cairn run` need not print it again.
   */
  printedAnswer(answer: string): boolean {
    return !this.lostAny && this.answer !== undefined && this.answer.text.trim() === answer.trim();
  }

  /**
   * A notice for stderr (an answer accepted, a stream given up): the half-printed line ends first,
   * so on a terminal the notice never runs into the model's text on stdout.
   */
  notice(text: string): void {
    this.breakLine();
    this.current = undefined;
    write('err', `${text}\n`);
  }

  /** A prompt opens: keep output until {@link release}, starting it on a fresh line then. */
  hold(): void {
    if (this.held) return;
    this.breakLine();
    this.current = undefined;
    this.held = [];
  }

  /** The prompt is done: prints what was kept meanwhile. */
  release(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    if (this.droppedChars > 0)
      write(this.channel, `[… ${this.droppedChars} characters of live output left out while you answered …]\n`);
    write(this.channel, held.join(''));
    this.heldChars = 0;
    this.droppedChars = 0;
  }

  private out(text: string): void {
    if (!this.held) return void write(this.channel, text);
    this.held.push(text);
    this.heldChars += text.length;
    while (this.heldChars > HELD_MAX_CHARS && this.held.length > 1) {
      const first = this.held.shift() ?? '';
      this.heldChars -= first.length;
      this.droppedChars += first.length;
      this.lostAny = true;
    }
  }

  private retrying(modelCallId: string, attempt: number): void {
    this.attempts.set(modelCallId, attempt);
    this.line('[retrying…]');
  }

  /**
   * The text of a delta to print: a planning call's reply that is the plan as JSON is not printed
   * (one line says it is being written; the timeline and the plan check show the plan itself).
   * Until its first visible character says which it is, a planning call's text is kept back.
   */
  private printable(delta: z.infer<typeof deltaSchema>): string | undefined {
    if (delta.channel !== 'text' || (delta.purpose !== 'plan' && delta.purpose !== 'replan')) return delta.text;
    const key = `${delta.modelCallId}#${delta.attempt}`;
    const before = this.planTexts.get(key) ?? '';
    if (typeof before !== 'string') return before.json ? undefined : delta.text;
    const seen = before + delta.text;
    if (seen.trim() === '') return void this.planTexts.set(key, seen);
    const json = /^[{[`]/.test(seen.trimStart());
    this.planTexts.set(key, { json });
    if (json) this.line(`${heading(delta)} writing the plan (shown when it is done)`);
    return json ? undefined : seen;
  }

  private delta(delta: z.infer<typeof deltaSchema>): void {
    if (delta.channel === 'reasoning' && !this.options.reasoning) return;
    const text = this.printable(delta);
    if (text === undefined) return;
    if (delta.purpose === 'summary' && delta.channel === 'text') {
      const key = `${delta.modelCallId}#${delta.attempt}`;
      this.answer = { key, text: (this.answer?.key === key ? this.answer.text : '') + text };
    }
    const where = `${delta.modelCallId}#${delta.attempt}/${delta.channel}/${delta.toolCallId ?? ''}`;
    if (where !== this.current) {
      this.breakLine();
      const lead =
        delta.channel === 'tool'
          ? `⚙ ${delta.toolName ?? 'tool'} `
          : delta.channel === 'reasoning'
            ? '[reasoning] '
            : `${heading(delta)}\n`;
      this.out(lead);
      this.current = where;
      this.midLine = !lead.endsWith('\n');
    }
    if (text === '') return;
    this.out(text);
    this.midLine = !text.endsWith('\n');
  }

  private breakLine(): void {
    if (this.midLine) this.out('\n');
    this.midLine = false;
  }
}

/** `[planner]`, `[s1]`, `[answer]`, or the purpose. */
function heading(call: { purpose: string; stepId?: string | undefined }): string {
  if (call.stepId !== undefined) return `[${call.stepId}]`;
  if (call.purpose === 'plan' || call.purpose === 'replan') return '[planner]';
  if (call.purpose === 'summary') return '[answer]';
  return `[${call.purpose}]`;
}
