/**
 * `tool.approval`: a person allows or refuses one tool call (a step asks, for its own call). The
 * answer is `{ decision: approve | reject, digest, reason? }` and must carry the digest of the
 * arguments shown (approval-digest.ts), so an approval holds for exactly those. Only `approver`
 * or `admin` may be named for it; expired, it is rejected under any policy. Pure.
 */
import { z } from 'zod';
import { SIDE_EFFECT_ROLES, accept, decision, expected, invalid, optionalText } from './answer-rules';
import { defineKind } from './kind-module';
import { approvalPreviewSchema } from '../../tools/approval-preview';

/** What a `tool.approval` shows: the call, and the digest of its arguments an answer must carry. */
export const approvalRequestSchema = z.object({
  tool: z.string(),
  arguments: z.unknown(),
  digest: z.string(),
  why: z.string().optional(),
  /** How a write would change its file (a diff against the current one), when the worker could tell. */
  preview: approvalPreviewSchema.optional(),
  /** The approval policy's rule that asked for this approval (absent without a policy). */
  rule: z.string().optional(),
  /** The role an approver needs (besides admin), from the policy's `@role`. */
  role: z.string().optional(),
  /** How many distinct people must approve (the policy's `@approvers`); 1 when absent. */
  approvers: z.number().int().min(1).optional(),
});

/** An approval as a step asks for it (the `stepInteraction` signal): nothing empty, at most 5 approvers. */
const fromStep = z.object({
  kind: z.literal('tool.approval'),
  prompt: z.string().min(1, 'must not be empty'),
  tool: z.string().min(1, 'must not be empty'),
  arguments: z.unknown(),
  digest: z.string().min(1, 'must not be empty'),
  why: z.string().optional(),
  preview: approvalPreviewSchema.optional(),
  /** The approval policy's rule, the role it names and how many people must approve. */
  rule: z.string().optional(),
  role: z.string().optional(),
  approvers: z.number().int().min(1).max(5).optional(),
});

export const toolApproval = defineKind({
  kind: 'tool.approval',
  spec: approvalRequestSchema.extend({ kind: z.literal('tool.approval'), prompt: z.string() }),
  answer: z.object({
    decision: z.enum(['approve', 'reject']),
    digest: z.string(),
    reason: z.string().optional(),
  }),
  incoming: {
    schema: z.object({
      decision: decision(['approve', 'reject']),
      digest: z.string(expected('a string')),
      reason: optionalText,
    }),
    shape: '{ decision: approve | reject, digest, reason? }',
    key: 'decision',
  },
  answerRoles: { family: 'tool.approval', roles: z.enum(SIDE_EFFECT_ROLES) },
  fromStep,
  expire: (spec) => ({ decision: 'reject' as const, digest: spec.digest, reason: 'nobody approved it in time' }),
  check: (spec, { decision, digest, reason }) => {
    if (digest !== spec.digest) return invalid('digest', 'digest: this approval is for other arguments');
    return accept({ decision, digest, ...(reason ? { reason } : {}) });
  },
});
