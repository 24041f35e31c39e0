/**
 * The replay gates whose old path release 0.3.0 took (they landed after its release commit),
 * part of the one registry in patches.ts (which documents what each field means and the
 * lifecycle): kept in a file of their own so each release's gates stay a readable size.
 */
import type { PatchInfo } from './patch-info';

/** The gates kept for 0.3.0's histories and agents, by the name call sites use. */
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
  agentSetupAtOnce: {
    id: 'cairn-agent-setup-at-once',
    since: '0.3.0',
    stage: 'patched',
    feature: 'an agent reads its tool catalogue and prompt texts together, with no patch call after a local activity',
    why: 'runs before read the catalogue, then called a patch and read the texts (a patch marker that cannot replay after a split task)',
  },
  toolRegexOwnOnly: {
    id: 'cairn-tool-regex-own-only',
    since: '0.3.0',
    stage: 'patched',
    feature:
      "a tool call's arguments are checked in workflow code without any regular expression but Cairn's own (a user or MCP tool's pattern, patternProperties or format regex is dropped; the tool enforces it where it runs)",
    why: "runs before ran every expression of the catalogue's schemas, user and MCP tools' among them, refusing a call in the workflow",
    replayedBy: 'test/integration/tool-regex-own-only.test.ts',
  },
} as const satisfies Record<string, PatchInfo>;
