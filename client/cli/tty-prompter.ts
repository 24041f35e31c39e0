/**
 * The real `Prompter` for a terminal, on `@inquirer/prompts`. Prompts write to `output` (stderr
 * under `--json`, so stdout carries only the JSON result).
 */
import { checkbox, confirm, editor, input, number, select } from '@inquirer/prompts';
import type { Check, Choice, Prompter, PromptOptions } from './prompter';

/** Adapts a `Check` to inquirer's `validate` (which wants `true` or a message). */
const validator =
  <T>(check: Check<T> | undefined) =>
  (value: T): true | string =>
    check ? check(value) : true;

/** Prompts on the terminal; `output` is where questions are drawn. */
export class TtyPrompter implements Prompter {
  constructor(private readonly output: NodeJS.WritableStream = process.stdout) {}

  private context(options: PromptOptions | undefined) {
    return { output: this.output, ...(options?.signal ? { signal: options.signal } : {}) };
  }

  show(text: string): void {
    this.output.write(`${text}\n`);
  }

  text(message: string, options?: PromptOptions & { default?: string; validate?: Check<string> }): Promise<string> {
    const config = { message, default: options?.default, validate: validator(options?.validate) };
    return input(config, this.context(options));
  }

  number(
    message: string,
    options?: PromptOptions & { default?: number; required?: boolean; validate?: Check<number | undefined> },
  ): Promise<number | undefined> {
    const config = {
      message,
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
    return select<T>({ message, choices, default: options?.default }, this.context(options));
  }

  multiSelect(
    message: string,
    choices: Choice[],
    options?: PromptOptions & { defaults?: string[]; validate?: Check<string[]> },
  ): Promise<string[]> {
    const checked = new Set(options?.defaults ?? []);
    const config = {
      message,
      choices: choices.map((c) => ({ ...c, checked: checked.has(c.value) })),
      validate: (values: readonly { value: string }[]) => validator(options?.validate)(values.map((v) => v.value)),
    };
    return checkbox<string>(config, this.context(options));
  }

  confirm(message: string, options?: PromptOptions & { default?: boolean }): Promise<boolean> {
    return confirm({ message, default: options?.default }, this.context(options));
  }

  editor(message: string, initial: string, options?: PromptOptions): Promise<string> {
    return editor({ message, default: initial, postfix: '.json' }, this.context(options));
  }
}
