/**
 * The real `Prompter` for a terminal, on `@inquirer/prompts`. Prompts write to `output` (stderr
 * under `--json`, so stdout carries only the JSON result). Every text it shows — a question, a
 * choice, a default, a check's message, `show`n text — can come from a model, so each passes
 * through `terminalSafe` first (terminal.ts): the library's own drawing is the only control
 * sequence that reaches the terminal. A choice's value comes back as it was; only its label is made safe.
 */
import { checkbox, confirm, editor, input, number, select } from '@inquirer/prompts';
import type { Check, Choice, Prompter, PromptOptions } from './prompter';
import { promptStream, terminalSafe } from './terminal';

/** Adapts a `Check` to inquirer's `validate` (which wants `true` or a message), the message made safe. */
const validator =
  <T>(check: Check<T> | undefined) =>
  (value: T): true | string => {
    const verdict = check ? check(value) : true;
    return verdict === true ? true : terminalSafe(verdict);
  };

/** A choice as the library shows it: its label (the value when it has none) made safe, its value kept. */
const safeChoice = <T extends string>(c: Choice<T>) => ({
  value: c.value,
  name: terminalSafe(c.name ?? c.value),
  ...(c.description !== undefined ? { description: terminalSafe(c.description) } : {}),
});

/** Prompts on the terminal; `output` is where questions are drawn, `input` where keys come from (stdin by default). */
export class TtyPrompter implements Prompter {
  constructor(
    private readonly output: NodeJS.WritableStream = promptStream('out'),
    private readonly input?: NodeJS.ReadableStream,
  ) {}

  private context(options: PromptOptions | undefined) {
    return {
      output: this.output,
      ...(this.input ? { input: this.input } : {}),
      ...(options?.signal ? { signal: options.signal } : {}),
    };
  }

  show(text: string): void {
    this.output.write(`${terminalSafe(text)}\n`);
  }

  /**
   * A default is shown before it is taken, so it is made safe too: what Enter sends is what was on
   * the screen.
   */
  text(message: string, options?: PromptOptions & { default?: string; validate?: Check<string> }): Promise<string> {
    const fallback = options?.default === undefined ? undefined : terminalSafe(options.default);
    const config = { message: terminalSafe(message), default: fallback, validate: validator(options?.validate) };
    return input(config, this.context(options));
  }

  number(
    message: string,
    options?: PromptOptions & { default?: number; required?: boolean; validate?: Check<number | undefined> },
  ): Promise<number | undefined> {
    const config = {
      message: terminalSafe(message),
      default: options?.default,
      required: options?.required ?? false,
      step: 'any' as const,
      validate: validator(options?.validate),
    };
    return number(config, this.context(options));
  }

  select<T extends string>(
    message: string,
    choices: Choice<T>[],
    options?: PromptOptions & { default?: T },
  ): Promise<T> {
    const config = { message: terminalSafe(message), choices: choices.map(safeChoice), default: options?.default };
    return select<T>(config, this.context(options));
  }

  multiSelect(
    message: string,
    choices: Choice[],
    options?: PromptOptions & { defaults?: string[]; validate?: Check<string[]> },
  ): Promise<string[]> {
    const checked = new Set(options?.defaults ?? []);
    const config = {
      message: terminalSafe(message),
      choices: choices.map((c) => ({ ...safeChoice(c), checked: checked.has(c.value) })),
      validate: (values: readonly { value: string }[]) => validator(options?.validate)(values.map((v) => v.value)),
    };
    return checkbox<string>(config, this.context(options));
  }

  confirm(message: string, options?: PromptOptions & { default?: boolean }): Promise<boolean> {
    return confirm({ message: terminalSafe(message), default: options?.default }, this.context(options));
  }

  editor(message: string, initial: string, options?: PromptOptions): Promise<string> {
    // The initial text goes to a file in the editor, not to the terminal.
    return editor({ message: terminalSafe(message), default: initial, postfix: '.json' }, this.context(options));
  }
}
