/**
 * The scripted model of the `cairn chat` tests: a message routed to chat and answered with
 * `chatReply`, then one routed to a task whose step asks who reads the brief (`q1`), writes
 * `brief.txt` (`w1`, an approval) and finishes; the summary answers "The brief is in brief.txt.".
 */
import { reply, type MessageReply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { finish, plan, planReply, step } from './plans';

export function chatThenBrief(chatReply: MessageReply = reply.text('Hello! What shall we write?')) {
  return byRoute({
    'route-message': [reply.json({ kind: 'chat', reason: 'a greeting' }), reply.json({ kind: 'task', reason: 'work' })],
    chat: [chatReply],
    plan: [planReply(plan([step('s1')]))],
    'step:s1': [
      reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads the brief?' }, 'q1'),
      reply.toolCall('write_file', { path: 'brief.txt', content: 'for engineers' }, 'w1'),
      finish('wrote it'),
    ],
    summary: [reply.text('The brief is in brief.txt.')],
  });
}
