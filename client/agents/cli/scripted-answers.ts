/**
 * Scripted answers for CI: when stdin is not a terminal, `cairn run` reads one JSON answer per
 * line (docs/contracts.md#cli) and applies them to interactions in the order they open. Blank lines
 * and lines starting with `#` are skipped; a rejected answer uses up its line and the next line
 * is tried for the same interaction; a line that is not JSON is reported and skipped likewise.
 */
import { createInterface } from 'node:readline';
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';
import { completeAnswer, type AnswerRequest, type AnswerSource } from './answer-source';

/** Lines of a stream, taken one at a time; `undefined` once the stream has ended. */
export class LineQueue {
  private readonly lines: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(stream: NodeJS.ReadableStream) {
    const reader = createInterface({ input: stream, crlfDelay: Infinity });
    reader.on('line', (line) => this.push(line));
    reader.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  private push(line: string): void {
    this.lines.push(line);
    this.wake?.();
  }

  /** The next line, waiting for it; rejects when `signal` aborts first. */
  async next(signal?: AbortSignal): Promise<string | undefined> {
    while (this.lines.length === 0 && !this.ended) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = undefined;
          signal?.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    signal?.throwIfAborted();
    return this.lines.shift();
  }
}

/** Answers from a `LineQueue`; reports skipped or rejected lines through `note`. */
export class ScriptedAnswers implements AnswerSource {
  constructor(
    private readonly lines: LineQueue,
    private readonly note: (message: string) => void,
  ) {}

  async answer(interaction: Interaction, request: AnswerRequest): Promise<unknown> {
    if (request.rejection !== undefined) this.note(`${interaction.id}: answer rejected: ${request.rejection}`);
    for (;;) {
      const line = await this.lines.next(request.signal);
      if (line === undefined) return undefined;
      const text = line.trim();
      if (text === '' || text.startsWith('#')) continue;
      try {
        return completeAnswer(interaction, JSON.parse(text));
      } catch {
        this.note(`${interaction.id}: skipped a line that is not JSON: ${text.slice(0, 80)}`);
      }
    }
  }
}
