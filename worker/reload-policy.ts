/**
 * SIGHUP reloads the approval policy file (docs/operations.md#approval-policies): a valid file
 * is in force from the next decision on; an invalid one is refused, naming each problem, and
 * the policy in force stays. A worker started without CAIRN_POLICY_FILE has no policy to reload
 * (its catalogue does not route calls through one): turning a policy on takes a restart.
 */
import type { CairnConfig } from '../config/config';
import { loadPolicyFile } from '../config/policy-config';

/** What a reload did, as the line the worker logs. */
export function reloadPolicy(config: CairnConfig, env: Record<string, string | undefined> = process.env): string {
  const policy = config.tools.policy;
  const path = env.CAIRN_POLICY_FILE;
  if (!policy || !path) return 'SIGHUP: no approval policy to reload (CAIRN_POLICY_FILE was not set at start)';
  const loaded = loadPolicyFile(path, config.tools.autoApprove);
  if ('problems' in loaded || !loaded.policy)
    return `SIGHUP: kept the approval policy in force; ${path} is invalid:\n${('problems' in loaded ? loaded.problems : []).map((p) => `  ${p}`).join('\n')}`;
  policy.replace(loaded.policy);
  return `SIGHUP: approval policy reloaded from ${path} (${loaded.policy.rules.map((r) => r.id).join(', ')})`;
}

/** Reloads the policy whenever the process gets SIGHUP, logging the outcome. */
export function reloadPolicyOnHangUp(config: CairnConfig): void {
  process.on('SIGHUP', () => console.log(reloadPolicy(config)));
}
