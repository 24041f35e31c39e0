/**
 * Builds the whole reply from a streamed Chat Completion, chunk by chunk, and says what each
 * chunk added for viewers (a {@link LiveDelta}): text, reasoning (`reasoning_content`, or
 * `<think>` inline in the content) and tool calls as their arguments form. The reply it
 * assembles is the `chat.completion` a non-streamed request would have got, so the same readers
 * (read-completion.ts) handle both, quirks included: arguments sent as an object, reasoning
 * beside or inside the content, no usage.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ThinkSplitter } from './think-splitter';

/** What one chunk added, for viewers: the delta's channel and text (see docs/contracts.md#live-output). */
export interface LiveDelta {
  channel: 'text' | 'reasoning' | 'tool';
  text: string;
  /** On `tool` deltas: the id of the tool call being formed. */
  toolCallId?: string;
  /** On a tool call's first delta: the tool's name. */
  toolName?: string;
}

/** A stream that ended before its reply did (no `finish_reason`): a cut connection, a dying server. */
export class IncompleteStreamError extends Error {
  constructor() {
    super('the streamed reply ended before it finished (no finish_reason)');
    this.name = 'IncompleteStreamError';
  }
}

/** Fields servers stream beside the standard ones. */
interface LooseDelta {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

interface FormingCall {
  id: string;
  name: string;
  /** Text fragments joined, or the object a server sent whole. */
  arguments: unknown;
}

/** One streamed reply being assembled. */
export class ChunkAccumulator {
  private id = '';
  private model = '';
  private created = 0;
  private content: string | null = null;
  private reasoning = '';
  private readonly calls: FormingCall[] = [];
  private finishReason: ChatCompletion.Choice['finish_reason'] | undefined;
  private usage: ChatCompletion['usage'];
  private readonly think = new ThinkSplitter();
  /** Where this reply's reasoning comes from, for viewers: the first source that carried some. */
  private reasoningSource: 'field' | 'inline' | undefined;

  /** Takes one chunk; returns what it added for viewers. */
  add(chunk: ChatCompletionChunk): LiveDelta[] {
    this.id ||= chunk.id;
    this.model ||= chunk.model;
    this.created ||= chunk.created;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return [];
    const out: LiveDelta[] = [];
    const delta = choice.delta ?? {};
    const loose = delta as LooseDelta;
    const thought = typeof loose.reasoning_content === 'string' ? loose.reasoning_content : loose.reasoning;
    if (typeof thought === 'string' && thought !== '') {
      this.reasoning += thought;
      out.push(...this.thoughts('field', [{ channel: 'reasoning', text: thought }]));
    }
    if (typeof delta.content === 'string') {
      this.content = (this.content ?? '') + delta.content;
      out.push(...this.thoughts('inline', this.think.push(delta.content)));
    }
    for (const fragment of delta.tool_calls ?? []) out.push(...this.addToolFragment(fragment));
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      out.push(...this.thoughts('inline', this.think.flush()));
    }
    return out;
  }

  /**
   * `pieces` for viewers, their reasoning only when it comes from the reply's first source of
   * reasoning: a server that sends the thoughts both in `reasoning_content` and as a `<think>`
   * block in the content (llama.cpp's `deepseek-legacy` format) shows them once.
   */
  private thoughts(source: 'field' | 'inline', pieces: LiveDelta[]): LiveDelta[] {
    return pieces.filter((piece) => {
      if (piece.channel !== 'reasoning') return true;
      this.reasoningSource ??= source;
      return this.reasoningSource === source;
    });
  }

  /** The whole reply as one `chat.completion`; throws IncompleteStreamError when it never finished. */
  completion(): ChatCompletion {
    if (this.finishReason === undefined) throw new IncompleteStreamError();
    // flatMap skips the holes a server's sparse indices leave.
    const toolCalls = this.calls.flatMap((call) => [
      {
        id: call.id,
        type: 'function' as const,
        // An object sent whole stays an object: read-completion.ts turns it into JSON text.
        function: { name: call.name, arguments: call.arguments as string },
      },
    ]);
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.model,
      choices: [
        {
          index: 0,
          finish_reason: this.finishReason,
          logprobs: null,
          message: {
            role: 'assistant',
            content: this.content,
            refusal: null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            ...(this.reasoning !== '' ? { reasoning_content: this.reasoning } : {}),
          },
        },
      ],
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }

  private addToolFragment(fragment: ChatCompletionChunk.Choice.Delta.ToolCall): LiveDelta[] {
    const index = fragment.index ?? this.calls.length;
    let call = this.calls[index];
    const first = call === undefined;
    if (!call) {
      call = { id: fragment.id ?? `call_${index}`, name: '', arguments: '' };
      this.calls[index] = call;
    }
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name += fragment.function.name;
    const args: unknown = fragment.function?.arguments;
    let text = '';
    if (typeof args === 'string') {
      call.arguments = typeof call.arguments === 'string' ? call.arguments + args : args;
      text = args;
    } else if (args !== undefined && args !== null) {
      call.arguments = args;
      text = JSON.stringify(args);
    }
    if (!first && text === '') return [];
    return [
      {
        channel: 'tool',
        text,
        toolCallId: call.id,
        ...(first && call.name !== '' ? { toolName: call.name } : {}),
      },
    ];
  }
}
