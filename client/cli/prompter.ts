/**
 * The `Prompter`: the few questions the CLI asks a person (text, number, choice, choices, yes/no,
 * editor), kept behind an interface so the logic that turns an interaction into an answer is
 * testable with a fake, and the real prompts (`tty-prompter.ts`) stay a thin adapter.
 */

/** One option of a choice. */
export interface Choice<T extends string = string> {
  value: T;
  name?: string;
  description?: string;
}

/** Options every prompt takes. */
export interface PromptOptions {
  /** Aborts the prompt (the interaction was answered elsewhere, expired, or the agent ended). */
  signal?: AbortSignal;
}

/** A check run on each entry: `true`, or the message to show before asking again. */
export type Check<T> = (value: T) => true | string;

/** The questions the CLI can ask. Every method resolves with what the person entered. */
export interface Prompter {
  /** Shows text (a plan, tool arguments, a rejection message) before the next question. */
  show(text: string): void;
  text(message: string, options?: PromptOptions & { default?: string; validate?: Check<string> }): Promise<string>;
  /** A number; `undefined` when left empty (only possible when `required` is false). */
  number(
    message: string,
    options?: PromptOptions & { default?: number; required?: boolean; validate?: Check<number | undefined> },
  ): Promise<number | undefined>;
  select<T extends string>(
    message: string,
    choices: Choice<T>[],
    options?: PromptOptions & { default?: T },
  ): Promise<T>;
  multiSelect(
    message: string,
    choices: Choice[],
    options?: PromptOptions & { defaults?: string[]; validate?: Check<string[]> },
  ): Promise<string[]>;
  confirm(message: string, options?: PromptOptions & { default?: boolean }): Promise<boolean>;
  /** Long text in the user's editor, starting from `initial`. */
  editor(message: string, initial: string, options?: PromptOptions): Promise<string>;
}

/** The same prompter with `signal` added to every question. */
export function withSignal(prompter: Prompter, signal: AbortSignal | undefined): Prompter {
  if (!signal) return prompter;
  return {
    show: (text) => prompter.show(text),
    text: (message, options) => prompter.text(message, { ...options, signal }),
    number: (message, options) => prompter.number(message, { ...options, signal }),
    select: (message, choices, options) => prompter.select(message, choices, { ...options, signal }),
    multiSelect: (message, choices, options) => prompter.multiSelect(message, choices, { ...options, signal }),
    confirm: (message, options) => prompter.confirm(message, { ...options, signal }),
    editor: (message, initial, options) => prompter.editor(message, initial, { ...options, signal }),
  };
}

/** Whether `err` is the prompt library's "the user pressed Ctrl-C". */
export function isPromptExit(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}
