/**
 * The lean baseline's activities: one model call with the real `openai` client against the
 * benchmark's fake (the same headers Cairn sends, so the same script answers both), and the
 * `lookup` tool the parallel-efficiency benchmark's steps call between rounds.
 */
import OpenAI from 'openai';
import type { LeanModelCall, LeanModelReply } from './lean-types';

export interface LeanActivities {
  callModel(call: LeanModelCall): Promise<LeanModelReply>;
  lookup(key: string): Promise<string>;
}

/** The activities, calling the model at `baseUrl`. */
export function leanActivities(baseUrl: string): LeanActivities {
  const openai = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0 });
  return {
    async callModel({ purpose, stepId, messages }) {
      const response = await openai.chat.completions.create(
        { model: 'scripted-model', messages: messages as OpenAI.ChatCompletionMessageParam[] },
        { headers: { 'X-Cairn-Purpose': purpose, ...(stepId ? { 'X-Cairn-Step': stepId } : {}) } },
      );
      const message = response.choices[0]?.message;
      return {
        content: message?.content ?? null,
        toolCalls: (message?.tool_calls ?? []).flatMap((c) =>
          c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
        ),
      };
    },
    lookup(key) {
      return Promise.resolve(`value-of-${key}`);
    },
  };
}
