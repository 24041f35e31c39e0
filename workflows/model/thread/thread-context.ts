/**
 * What a thread tells the model about its earlier turns, pure so it is the same on replay: a
 * task turn's agent gets its message followed by the earlier turns (messages, the steps of tasks
 * with their results, replies), a chat reply the conversation as messages. Both are cut to a
 * size bound, the oldest turns dropped first. Once older turns were folded into the thread's
 * summary (thread-compress.ts), it comes first, as a turn of its own (`withSummary`).
 */
import type { Turn, TurnsSummary } from './thread-schemas';
import type { LlmMessage } from '../llm/llm-types';
import { render } from '../prompts/templates';
import {
  MAX_REUSABLE_RESULT_CHARS,
  MAX_REUSABLE_STEPS,
  MAX_REUSABLE_TITLE_CHARS,
  type ReusableStep,
} from '../plan/plan-reuse';
import { MAX_EARLIER_APPROVALS, sameSender, senderOf, type EarlierApproval } from '../tools/approval-reuse';
import type { Principal } from '../principal';

/** The most characters of earlier turns a task or a chat reply is given. */
export const MAX_CONTEXT_CHARS = 12_000;

/** The most characters of one step result or reply in the context. */
const MAX_PART_CHARS = 2_000;

/** The turns worth telling: those that were answered or ran. */
const told = (turn: Turn): boolean => turn.status !== 'rejected' && turn.status !== 'routing';

const cut = (text: string): string => (text.length > MAX_PART_CHARS ? `${text.slice(0, MAX_PART_CHARS)} …[cut]` : text);

/** The id of the turn that stands for the summary in a turn's context. */
export const SUMMARY_TURN_ID = 'summary';

/** The earlier turns as a later turn's context: the summary, if any, as a turn of its own, then the turns kept. */
export function withSummary(summary: TurnsSummary | undefined, earlier: Turn[]): Turn[] {
  if (summary === undefined) return earlier;
  return [{ messageId: SUMMARY_TURN_ID, text: '', reply: summary.text, status: 'completed' }, ...earlier];
}

/** The summary in `earlier`, and the turns after it. */
function splitSummary(earlier: Turn[]): { summary?: string; turns: Turn[] } {
  const [first, ...rest] = earlier;
  if (first?.messageId !== SUMMARY_TURN_ID) return { turns: earlier };
  return { summary: first.reply ?? '', turns: rest };
}

/** One earlier turn as the agent of a later task reads it. */
export function turnText(turn: Turn): string {
  if (turn.messageId === SUMMARY_TURN_ID) return `Summary of the older turns: ${turn.reply ?? ''}`;
  const lines = [`[${turn.messageId}] ${turn.by ?? 'user'} (${turn.kind ?? 'message'}): ${cut(turn.text)}`];
  for (const step of turn.steps ?? [])
    lines.push(`  step ${step.id} "${step.title}": ${step.result !== undefined ? cut(step.result) : '(no result)'}`);
  if (turn.reply !== undefined) lines.push(`  reply: ${cut(turn.reply)}`);
  if (turn.kind === 'task' && turn.status !== 'completed') lines.push(`  (the task ${turn.status})`);
  return lines.join('\n');
}

/** The newest parts that fit in `budget` characters, oldest first; whether older ones were left out. */
function newestFitting(parts: string[], budget: number): { kept: string[]; dropped: boolean } {
  const kept: string[] = [];
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] ?? '';
    if (used + part.length > budget) return { kept: kept.reverse(), dropped: true };
    kept.push(part);
    used += part.length;
  }
  return { kept: kept.reverse(), dropped: false };
}

/** The task of a task turn's agent: the message, then the earlier turns that fit. */
export function turnTask(text: string, earlier: Turn[]): string {
  const { summary, turns } = splitSummary(earlier);
  const { kept, dropped } = newestFitting(turns.filter(told).map(turnText), MAX_CONTEXT_CHARS);
  if (kept.length === 0 && summary === undefined) return text;
  const omitted = dropped ? ['(older turns left out)'] : [];
  return [
    text,
    '',
    'Earlier in this conversation (for context; do what the message above asks):',
    ...(summary !== undefined ? [`Summary of the older turns: ${summary}`] : []),
    ...omitted,
    ...kept,
  ].join('\n');
}

/** A chat reply's conversation: the instructions, the earlier turns that fit as messages, then the message. */
export function chatMessages(text: string, earlier: Turn[]): LlmMessage[] {
  const { summary, turns } = splitSummary(earlier);
  const pairs = turns.filter(told).map((turn) => {
    const answer = turn.kind === 'task' ? turnText({ ...turn, text: '' }) : (turn.reply ?? '');
    return { user: cut(turn.text), assistant: cut(answer) };
  });
  const sized = pairs.map((p) => `${p.user}\n${p.assistant}`);
  const { kept } = newestFitting(sized, MAX_CONTEXT_CHARS);
  const history = pairs.slice(pairs.length - kept.length).flatMap((p): LlmMessage[] => [
    { role: 'user', content: p.user },
    { role: 'assistant', content: p.assistant },
  ]);
  const recalled = summary === undefined ? [] : [render('thread.chat.summary', { summary })];
  const system = [render('thread.chat.system'), ...recalled].join('\n\n');
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: text }];
}

/**
 * The finished steps of the earlier task turns, which a later turn's plan may adopt (`reuse`,
 * plan-reuse.ts): each step with a result, under the agent that ran it; the newest that fit the bound.
 */
export function reusableSteps(earlier: Turn[]): ReusableStep[] {
  const steps: ReusableStep[] = [];
  for (const { agentId, steps: done } of earlier) {
    if (agentId === undefined) continue;
    for (const { id, title, result } of done ?? []) {
      if (result === undefined) continue;
      const cut = {
        title: title.slice(0, MAX_REUSABLE_TITLE_CHARS),
        result: result.slice(0, MAX_REUSABLE_RESULT_CHARS),
      };
      steps.push({ agentId, stepId: id, ...cut });
    }
  }
  return steps.slice(-MAX_REUSABLE_STEPS);
}

/**
 * The tool calls people approved in the earlier turns of the same sender as the turn run under
 * `principal` (approval-reuse.ts), the newest that fit the bound.
 */
export function earlierApprovals(earlier: Turn[], principal?: Principal): EarlierApproval[] {
  const sender = senderOf(principal);
  return earlier
    .flatMap((turn) => turn.approvals ?? [])
    .filter((a) => sameSender(a.sender, sender))
    .slice(-MAX_EARLIER_APPROVALS);
}
