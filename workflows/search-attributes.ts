/**
 * Cairn's custom search attributes (DESIGN §5), defined once for workflows and clients.
 * Every key must be registered on the server (scripts/dev-server.ts, npm run setup-cluster).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The agent's phase, e.g. `AgentPhase = "awaiting_input"`. */
export const AgentPhaseKey = defineSearchAttributeKey('AgentPhase', SearchAttributeType.KEYWORD);
/** True while any interaction waits for a human: `AgentAwaitingInput = true` in the Temporal UI. */
export const AgentAwaitingInputKey = defineSearchAttributeKey('AgentAwaitingInput', SearchAttributeType.BOOL);
