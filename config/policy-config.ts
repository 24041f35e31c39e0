/**
 * The approval policy file `CAIRN_POLICY_FILE` (docs/operations.md#approval-policies): Cedar
 * rules deciding per tool call whether it runs, asks a person or is refused. Read and validated
 * at start, so a bad file stops the worker with one line per problem instead of surfacing at
 * the first call. Without a file CAIRN_AUTO_APPROVE works as it always has (no policy runs).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadApprovalPolicy, type ApprovalPolicy } from '../activities/policy/approval-policy';

/** The environment variable naming the policy file. */
export const policyEnvShape = { CAIRN_POLICY_FILE: z.string().min(1).optional() };

/** Reads and validates the policy file (with CAIRN_AUTO_APPROVE as one more allow rule), or says what is wrong. */
export function loadPolicyFile(
  path: string | undefined,
  autoApprove: string[],
): { policy?: ApprovalPolicy } | { problems: string[] } {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return {
      problems: [`CAIRN_POLICY_FILE: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`],
    };
  }
  const loaded = loadApprovalPolicy(text, autoApprove);
  if ('problems' in loaded) return { problems: loaded.problems.map((p) => `CAIRN_POLICY_FILE (${path}): ${p}`) };
  return { policy: loaded };
}
