/**
 * The activity stubs workflows call, one per option profile (STYLE §1).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/create-activities';
import { llmProfile, toolProfile } from './activity-profiles';

export const { callLlm } = proxyActivities<Activities>(llmProfile);
export const { runTool, listTools } = proxyActivities<Activities>(toolProfile);
