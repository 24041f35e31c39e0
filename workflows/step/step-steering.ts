/**
 * A step's side of steering: messages its agent passes on (agent/agent-steer.ts) wait here and
 * join the conversation as user messages just before the step's next model call — never between
 * a reply's tool calls and their results. Messages steered in while no step ran come in the
 * step's input and join before its first call. One that comes while the model writes its final
 * answer is not left unheard: the step goes one more round (patch stepHearsLateSteer).
 * A payload that does not parse is dropped.
 */
import { setHandler } from '@temporalio/workflow';
import type { Conversations } from '../conversation';
import { steerMessageSchema, steerSignal, type SteerMessage } from '../contract/thread-contract';
import { received } from '../unencrypted-payload';

/** What the model hears of a steered message. */
export function steeredText(message: SteerMessage): string {
  return `A message from ${message.by ?? 'the user'} while you work on this step; take it into account:\n${message.text}`;
}

export class StepSteering {
  /** `held`: messages the agent held for this step while no step ran (its input's `steered`). */
  constructor(private pending: SteerMessage[] = []) {}

  serve(): this {
    setHandler(steerSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? undefined : steerMessageSchema.safeParse(sent.value);
      if (parsed?.success) this.pending.push(parsed.data);
    });
    return this;
  }

  /** Whether messages wait that the model has not heard (they came during its last call). */
  heardLate(): boolean {
    return this.pending.length > 0;
  }

  /** Appends the waiting messages to conversation `key` (state only: no command). */
  deliver(conversations: Conversations, key: string): void {
    for (const message of this.pending) conversations.append(key, { role: 'user', content: steeredText(message) });
    this.pending = [];
  }
}
