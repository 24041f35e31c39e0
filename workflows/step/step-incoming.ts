/**
 * Messages for the step's model that come while it works (model/incoming-messages.ts): its
 * agent passes them on by signal, they wait here and join the conversation as user messages just
 * before the step's next model call — never between a reply's tool calls and their results.
 * Those its agent held while no step ran come in the step's input (`incoming`) and join before
 * its first call; those waiting when the step continues as new ride in its carry. One that
 * comes while the model writes its final answer is not left unheard: the step goes one more
 * round. Each round's report names the messages its call heard first (`heard`): what a step
 * never heard (it ended first) is named by no report, and whoever sent it learns so from that.
 * A payload that does not parse is dropped.
 */
import { setHandler } from '@temporalio/workflow';
import type { Conversations } from '../runtime/conversation';
import { incomingMessageSignal } from '../contract/messages';
import { incomingMessageSchema, type IncomingMessage } from '../model/incoming-messages';
import { received } from '../runtime/unencrypted-payload';

/** What the model hears of an incoming message. */
export function incomingText(message: IncomingMessage): string {
  return `A message from ${message.by ?? 'the user'} while you work on this step; take it into account:\n${message.text}`;
}

export class IncomingMessages {
  /** `pending`: messages that came before this run could take them (its input's or carry's `incoming`). */
  constructor(private pending: IncomingMessage[] = []) {}

  serve(): this {
    setHandler(incomingMessageSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? undefined : incomingMessageSchema.safeParse(sent.value);
      if (parsed?.success) this.pending.push(parsed.data);
    });
    return this;
  }

  /** Whether messages wait that the model has not heard (they came during its last call). */
  waiting(): boolean {
    return this.pending.length > 0;
  }

  /** The waiting messages, for the carry when the step continues as new (none: absent). */
  carry(): { incoming?: IncomingMessage[] } {
    return this.pending.length > 0 ? { incoming: [...this.pending] } : {};
  }

  /**
   * Appends the waiting messages to conversation `key` (state only: no command); returns the ids
   * of those that have one, which the next call hears first (its round report's `heard`).
   */
  deliver(conversations: Conversations, key: string): string[] {
    const heard = this.pending.flatMap((message) => (message.messageId !== undefined ? [message.messageId] : []));
    for (const message of this.pending) conversations.append(key, { role: 'user', content: incomingText(message) });
    this.pending = [];
    return heard;
  }
}
