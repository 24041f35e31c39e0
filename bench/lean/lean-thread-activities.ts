/**
 * The lean floor's one activity: a streamed chat reply from the benchmark's fake through the
 * real `openai` client, with the headers Cairn's chat call sends (so the fake's log says which
 * thread each reply was for and when its first chunk was written).
 */
import OpenAI from 'openai';

export interface LeanThreadActivities {
  chatReply(message: { threadId: string; text: string }): Promise<string>;
}

/** The activity, calling the model at `baseUrl`. */
export function leanThreadActivities(baseUrl: string): LeanThreadActivities {
  const openai = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0 });
  return {
    async chatReply({ threadId, text }) {
      const stream = await openai.chat.completions.create(
        { model: 'scripted-model', messages: [{ role: 'user', content: text }], stream: true },
        { headers: { 'X-Cairn-Purpose': 'chat', 'X-Cairn-Agent': threadId } },
      );
      let reply = '';
      for await (const chunk of stream) reply += chunk.choices[0]?.delta.content ?? '';
      return reply;
    },
  };
}
