/**
 * Gates retired before any release shipped them: they guarded threads, steering and the thread's
 * stream, and the local reads of an agent's setup (agent/agent-setup.ts), all of which arrived
 * after 0.3.0's release commit, so no released history or running agent takes their old path. Their call sites are gone (the new path only); the ids stay
 * here because development histories of 0.4.0 carry their markers, and an id is never reused.
 * The development recordings that took an old path are retired in test/fixtures/retired.json.
 */
import type { PatchInfo } from './patch-info';

/** The retired, never-released gates, by name. */
export const PATCHES_RETIRED_UNRELEASED = {
  localToolCatalogue: {
    id: 'cairn-local-tool-catalogue',
    since: '0.3.0',
    stage: 'retired',
    feature: 'the agent reads its tool catalogue by a local activity, in the same task as the first plan call',
    why: 'runs before scheduled a listTools activity',
  },
  promptOverrides: {
    id: 'cairn-prompt-overrides',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "an agent reads the operator's prompt texts (CAIRN_PROMPTS_FILE) once at its start and uses them throughout",
    why: 'runs before used the built-in templates and read nothing',
  },
  threadTitle: {
    id: 'cairn-thread-title',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "a thread's title comes from one `title` call once its first message is routed, written to its memo and current details",
    why: 'runs before showed the first message, cut, and made no call',
  },
  threadCompress: {
    id: 'cairn-thread-compress',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "between turns, a thread's oldest turns past compressAtChars are folded into a summary by one `compress` call (mechanical when it fails)",
    why: 'runs before kept every turn and made no call',
  },
  threadStreamEnd: {
    id: 'cairn-thread-stream-end',
    since: '0.3.0',
    stage: 'retired',
    feature:
      'a thread that closes (idle timeout, cancelled, failed) signals liveEnd to its live stream (<thread id>/stream), which then ends in-band',
    why: 'runs before closed with no signal',
  },
  turnCancelSpend: {
    id: 'cairn-turn-cancel-spend',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "a thread's turn cancelled by a request returns its result (status cancelled, with its usage), as a nested agent does, so the thread counts its spend",
    why: 'runs before ended the workflow as cancelled, and the thread never learnt what the turn spent',
  },
  threadTitleAfterReply: {
    id: 'cairn-thread-title-after-reply',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "a new thread's `title` call waits until its first message is answered (a chat reply written, a task's agent started), so the first reply never queues behind the title at the model",
    why: 'runs before asked for the title as soon as the first message was routed, beside its reply',
  },
  threadOneMessageAtATime: {
    id: 'cairn-thread-one-message-at-a-time',
    since: '0.3.0',
    stage: 'retired',
    feature:
      'messages that waited for the same routing (or compression) to end wake together but go on one at a time: the first is routed, the others meet their policy behind it',
    why: 'runs before let every message that woke in the same workflow task be routed at once (two task turns could start side by side)',
  },
  threadSteerClosed: {
    id: 'cairn-thread-steer-closed',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "a thread's turn agent that begins its summary told its thread by a signal (since removed: steering runs one way), which then queued a message sent to steer it as the next turn",
    why: 'runs before sent no signal (the thread steered such messages into an agent whose steps had ended)',
  },
  threadFoldKeepsNewest: {
    id: 'cairn-thread-fold-keeps-newest',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "compression never folds a thread's newest turn, however large: a follow-up can still reuse its steps and approvals",
    why: 'runs before folded turns until at most half the threshold was left, the newest included',
  },
  stepHearsLateSteer: {
    id: 'cairn-step-hears-late-steer',
    since: '0.3.0',
    stage: 'retired',
    feature:
      'a message steered into a step while its model writes the final answer makes the step go one more round, so the model hears it',
    why: 'runs before ended the step with that answer, the message unheard',
  },
  threadSteerReturned: {
    id: 'cairn-thread-steer-returned',
    since: '0.3.0',
    stage: 'retired',
    feature:
      "a thread's turn agent that is steered once no step will start handed the message back to its thread by a signal (since removed: the turn's result names what it heard), which queued it as a next turn",
    why: 'runs before kept such a message on the timeline only (not delivered), while its thread said it was',
  },
  threadFilesAreTasks: {
    id: 'cairn-thread-files-are-tasks',
    since: '0.3.0',
    stage: 'retired',
    feature: "a thread's message with files and no kind is a task turn, without the router's call",
    why: 'runs before asked the router, which could answer it as chat and leave its files unread',
  },
  threadBudgetAfterRouting: {
    id: 'cairn-thread-budget-after-routing',
    since: '0.3.0',
    stage: 'retired',
    feature: "a message whose router call spent the thread's budget is refused before its reply or agent",
    why: 'runs before checked the budget only before routing, so the reply or the agent spent past it',
  },
} as const satisfies Record<string, PatchInfo>;
