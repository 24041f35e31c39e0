/**
 * Example definition: a support agent. It reads the workspace's handbook and answers a customer,
 * may ask the customer a question first, and may only read files. A start may pick another model
 * (`overridable`), nothing else beyond narrowing. Used by the tests and the docs.
 */
import type { AgentDefinitionInput } from '../../cairn';

export const supportAgent: AgentDefinitionInput = {
  name: 'support',
  label: 'handbook v1',
  description: 'Answers customer questions from the handbook in the workspace, kindly and briefly.',
  instructions:
    'You are the support agent. Answer the customer kindly and briefly, from the handbook in the workspace; ' +
    'quote it where you can and say so when it does not answer the question.',
  tools: ['read_file', 'list_files'],
  mode: { ask: true },
  limits: { maxReplans: 1, maxParallelSteps: 2 },
  language: 'en',
  overridable: ['model'],
};
