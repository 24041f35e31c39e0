/**
 * Example graph: a review loop. `draft` writes, `review` judges with a structured verdict, and
 * while the verdict is not approved `revise` rewrites and hands back to `review` — at most three
 * visits of any node. `review` is the end node: a visit whose verdict approves takes no edge and
 * ends the agent with the review's result. Used by the tests and the docs.
 */
import type { GraphInput } from '../../workflows/model/graph/graph-schema';

/** draft → review → (approved? end : revise → review), at most 3 visits per node. */
export const reviewLoopGraph: GraphInput = {
  name: 'review-loop',
  description: 'Draft a text, then review and revise it until the reviewer approves.',
  nodes: [
    { id: 'draft', title: 'Draft', systemPrompt: 'Write a first draft of the requested text.' },
    {
      id: 'review',
      title: 'Review',
      systemPrompt: 'Review the latest draft. Approve it, or say exactly what must change.',
      output: {
        type: 'object',
        properties: { approved: { type: 'boolean' }, feedback: { type: 'string' } },
        required: ['approved', 'feedback'],
        additionalProperties: false,
      },
    },
    { id: 'revise', title: 'Revise', systemPrompt: "Revise the draft as the reviewer's feedback asks." },
  ],
  edges: [
    { from: 'draft', to: 'review' },
    { from: 'review', to: 'revise', when: { equals: { path: 'approved', value: false } } },
    { from: 'revise', to: 'review' },
  ],
  entry: ['draft'],
  end: ['review'],
  maxIterations: 3,
};
