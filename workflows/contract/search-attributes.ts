/**
 * Cairn's custom search attributes, defined once for workflows, clients and the servers that
 * must register them. Every export of this module is a search attribute key: the dev server
 * (scripts/dev-server.ts) and `npm run setup-cluster` register each one they find here, so a new
 * key is registered everywhere by adding it to this file alone.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The agent's phase, e.g. `AgentPhase = "awaiting_input"`. */
export const AgentPhaseKey = defineSearchAttributeKey('AgentPhase', SearchAttributeType.KEYWORD);
/** True while any interaction waits for a human: `AgentAwaitingInput = true` in the Temporal UI. */
export const AgentAwaitingInputKey = defineSearchAttributeKey('AgentAwaitingInput', SearchAttributeType.BOOL);
/** Tokens the agent's whole tree used so far, kept current at step boundaries: `AgentTokens > 100000`. */
export const AgentTokensKey = defineSearchAttributeKey('AgentTokens', SearchAttributeType.INT);
/** Its cost in US dollars from the price table (unset while unknown): `AgentCostUsd > 5`. */
export const AgentCostUsdKey = defineSearchAttributeKey('AgentCostUsd', SearchAttributeType.DOUBLE);
