/**
 * The replay gates that arrived in release 0.3.0, part of the one registry in patches.ts (which
 * documents what each field means and the lifecycle): kept in a file of their own so each
 * release's gates stay a readable size.
 */
import type { PatchInfo } from './patch-info';

/** The patches of release 0.3.0, by the name call sites use. */
export const PATCHES_0_3 = {
  agentWorkspace: {
    id: 'cairn-agent-workspace',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "an agent's file tools work in its own folder, <CAIRN_WORKSPACE>/<agent id>/ (state.workspace 'agent'), shared by its steps and nested agents",
    why: 'runs before had every agent work in the one shared workspace root',
  },
  approvalPeople: {
    id: 'cairn-approval-people',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'an answer signal (straight to Temporal, naming nobody Cairn identified) cannot be one of the approvals of an approval that needs several people',
    why: "runs before counted a signal's free-text by as one more person",
  },
  approvalWhy: {
    id: 'cairn-approval-why',
    since: '0.3.0',
    stage: 'patched',
    feature: "a step's tool.approval carries why: the last 1000 characters of the text the model wrote before the call",
    why: 'runs before asked for approval without it',
  },
  approvalPreview: {
    id: 'cairn-approval-preview',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'a step asking a person to approve a write first asks the previewToolCall activity how the file would change, and shows it in the approval',
    why: 'runs before opened the approval with no activity',
  },
  liveStreamEnd: {
    id: 'cairn-live-stream-end',
    since: '0.3.0',
    stage: 'patched',
    feature: 'an agent that ends signals liveEnd to its live stream (<agent id>/stream), which then closes in-band',
    why: 'runs before ended with no signal',
  },
  localToolCatalogue: {
    id: 'cairn-local-tool-catalogue',
    since: '0.3.0',
    stage: 'patched',
    feature: 'the agent reads its tool catalogue by a local activity, in the same task as the first plan call',
    why: 'runs before scheduled a listTools activity',
  },
  planRepair: {
    id: 'cairn-plan-repair',
    since: '0.3.0',
    stage: 'patched',
    feature: 'after three unusable plans in a row, the latest repairable or salvageable one is used',
    why: 'runs before failed the agent with PLAN_INVALID',
  },
  strictPlanEdit: {
    id: 'cairn-strict-plan-edit',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a plan edit sent by signal with a key the plan has not (`dependsOn`) is refused (answer.rejected), as the update's validator refuses it",
    why: 'runs before dropped the unknown key and took the edit',
    replayedBy: 'test/integration/plan-edit-unknown-keys.test.ts',
  },
  unencryptedRefused: {
    id: 'cairn-unencrypted-refused',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'a worker with encryption keys refuses a message that arrived unencrypted (signal.rejected, or the update rejected)',
    why: 'runs before took the value as it came',
    replayedBy: 'test/integration/unencrypted-messages.test.ts',
  },
  replanRecheck: {
    id: 'cairn-replan-recheck',
    since: '0.3.0',
    stage: 'patched',
    feature: 'with confirmPlan, a replanned remainder goes back to the plan check, showing what changed',
    why: 'runs before ran a replanned remainder unchecked',
  },
  promptOverrides: {
    id: 'cairn-prompt-overrides',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "an agent reads the operator's prompt texts (CAIRN_PROMPTS_FILE) once at its start and uses them throughout",
    why: 'runs before used the built-in templates and read nothing',
  },
  agentSetupAtOnce: {
    id: 'cairn-agent-setup-at-once',
    since: '0.3.0',
    stage: 'patched',
    feature: 'an agent reads its tool catalogue and prompt texts together, with no patch call after a local activity',
    why: 'runs before read the catalogue, then called a patch and read the texts (a patch marker that cannot replay after a split task)',
  },
  threadTitle: {
    id: 'cairn-thread-title',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a thread's title comes from one `title` call once its first message is routed, written to its memo and current details",
    why: 'runs before showed the first message, cut, and made no call',
  },
  threadCompress: {
    id: 'cairn-thread-compress',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "between turns, a thread's oldest turns past compressAtChars are folded into a summary by one `compress` call (mechanical when it fails)",
    why: 'runs before kept every turn and made no call',
  },
  threadStreamEnd: {
    id: 'cairn-thread-stream-end',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'a thread that closes (idle timeout, cancelled, failed) signals liveEnd to its live stream (<thread id>/stream), which then ends in-band',
    why: 'runs before closed with no signal',
  },
  turnCancelSpend: {
    id: 'cairn-turn-cancel-spend',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a thread's turn cancelled by a request returns its result (status cancelled, with its usage), as a nested agent does, so the thread counts its spend",
    why: 'runs before ended the workflow as cancelled, and the thread never learnt what the turn spent',
  },
  threadTitleAfterReply: {
    id: 'cairn-thread-title-after-reply',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a new thread's `title` call waits until its first message is answered (a chat reply written, a task's agent started), so the first reply never queues behind the title at the model",
    why: 'runs before asked for the title as soon as the first message was routed, beside its reply',
  },
  threadOneMessageAtATime: {
    id: 'cairn-thread-one-message-at-a-time',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'messages that waited for the same routing (or compression) to end wake together but go on one at a time: the first is routed, the others meet their policy behind it',
    why: 'runs before let every message that woke in the same workflow task be routed at once (two task turns could start side by side)',
  },
  threadSteerClosed: {
    id: 'cairn-thread-steer-closed',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a thread's turn agent that begins its summary signals steerClosed to its thread, which then queues a message sent to steer it as the next turn",
    why: 'runs before sent no signal (the thread steered such messages into an agent whose steps had ended)',
  },
  threadFoldKeepsNewest: {
    id: 'cairn-thread-fold-keeps-newest',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "compression never folds a thread's newest turn, however large: a follow-up can still reuse its steps and approvals",
    why: 'runs before folded turns until at most half the threshold was left, the newest included',
  },
  stepHearsLateSteer: {
    id: 'cairn-step-hears-late-steer',
    since: '0.3.0',
    stage: 'patched',
    feature:
      'a message steered into a step while its model writes the final answer makes the step go one more round, so the model hears it',
    why: 'runs before ended the step with that answer, the message unheard',
  },
  threadSteerReturned: {
    id: 'cairn-thread-steer-returned',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a thread's turn agent that is steered once no step will start hands the message back to its thread (steerReturned), which queues it as a next turn",
    why: 'runs before kept such a message on the timeline only (not delivered), while its thread said it was',
  },
  threadFilesAreTasks: {
    id: 'cairn-thread-files-are-tasks',
    since: '0.3.0',
    stage: 'patched',
    feature: "a thread's message with files and no kind is a task turn, without the router's call",
    why: 'runs before asked the router, which could answer it as chat and leave its files unread',
  },
  threadBudgetAfterRouting: {
    id: 'cairn-thread-budget-after-routing',
    since: '0.3.0',
    stage: 'patched',
    feature: "a message whose router call spent the thread's budget is refused before its reply or agent",
    why: 'runs before checked the budget only before routing, so the reply or the agent spent past it',
  },
} as const satisfies Record<string, PatchInfo>;
