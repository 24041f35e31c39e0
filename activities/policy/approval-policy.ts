/**
 * Approval policies in Cedar (docs/operations.md#approval-policies): the policy file is parsed and
 * validated against {@link POLICY_SCHEMA} once, when the worker starts, and every tool call is
 * then decided by it. `forbid` rules deny; `permit` rules allow, or — annotated
 * `@decision("ask")` — ask a person, optionally with `@role("admin")`, `@approvers("2")` and
 * `@reuse("never")` (a thread's later turn asks again even for a call approved before).
 * Every rule carries an `@id`, which the audit names. No rule matching leaves the tool's own
 * effect in charge: a write asks, a read runs.
 */
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type { Context } from '@cedar-policy/cedar-wasm/nodejs';
import {
  AUTO_APPROVE_RULE,
  DEFAULT_RULE,
  type PolicyCallInput,
  type PolicyDecision,
} from '../../workflows/model/tools/policy-decision';
import { ANONYMOUS, POLICY_SCHEMA } from './policy-schema';

export { AUTO_APPROVE_RULE };

const ROLES = ['viewer', 'operator', 'approver', 'admin'];
const MAX_APPROVERS = 5;

interface Rule {
  id: string;
  effect: 'permit' | 'forbid';
  decision: 'allow' | 'ask' | 'deny';
  role?: string;
  approvers?: number;
  /** `@reuse("never")`: an approval of an earlier turn never stands for a call this rule asks about. */
  reuse?: 'never';
}

/** A loaded, validated policy. */
export interface ApprovalPolicy {
  /** The rules by id, in file order. */
  rules: Rule[];
  /** Decides one call. */
  decide(call: PolicyCallInput): PolicyDecision;
  /** Puts `next`'s rules in force from the next decision on (a reload; calls already decided keep theirs). */
  replace(next: ApprovalPolicy): void;
}

const messages = (errors: { message: string }[]) => errors.map((e) => e.message).join('; ');

/** The rule an annotated Cedar policy stands for, or the problems with its annotations. */
function ruleOf(index: number, effect: 'permit' | 'forbid', notes: Record<string, string>): Rule | string[] {
  const where = notes.id ? `rule "${notes.id}"` : `rule ${index + 1}`;
  const problems: string[] = [];
  if (!notes.id) problems.push(`${where}: needs an @id("...") annotation (the audit names the rule by it)`);
  const known = new Set(['id', 'decision', 'role', 'approvers', 'reuse', 'description']);
  for (const key of Object.keys(notes))
    if (!known.has(key))
      problems.push(`${where}: unknown annotation @${key} (expected id, decision, role, approvers, reuse)`);
  const allowed = effect === 'forbid' ? ['deny'] : ['allow', 'ask'];
  const decision = notes.decision ?? (effect === 'forbid' ? 'deny' : 'allow');
  if (!allowed.includes(decision))
    problems.push(`${where}: @decision("${decision}") on a ${effect} rule; expected ${allowed.join(' or ')}`);
  if ((notes.role !== undefined || notes.approvers !== undefined || notes.reuse !== undefined) && decision !== 'ask')
    problems.push(`${where}: @role, @approvers and @reuse only go with @decision("ask")`);
  if (notes.reuse !== undefined && notes.reuse !== 'never')
    problems.push(`${where}: @reuse("${notes.reuse}") is not known; expected @reuse("never")`);
  if (notes.role !== undefined && !ROLES.includes(notes.role))
    problems.push(`${where}: @role("${notes.role}") is not a role; expected one of ${ROLES.join(', ')}`);
  const approvers = notes.approvers === undefined ? undefined : Number(notes.approvers);
  if (approvers !== undefined && !(Number.isInteger(approvers) && approvers >= 1 && approvers <= MAX_APPROVERS))
    problems.push(`${where}: @approvers("${notes.approvers}") must be a whole number from 1 to ${MAX_APPROVERS}`);
  if (problems.length) return problems;
  return {
    id: notes.id ?? '',
    effect,
    decision: decision as Rule['decision'],
    ...(notes.role !== undefined ? { role: notes.role } : {}),
    ...(approvers !== undefined ? { approvers } : {}),
    ...(notes.reuse === 'never' ? { reuse: 'never' as const } : {}),
  };
}

/** The Cedar rule CAIRN_AUTO_APPROVE stands for: allow every call of the named tools. */
export function autoApproveRule(tools: string[]): string {
  const set = tools.map((t) => `Tool::${JSON.stringify(t)}`).join(', ');
  return `@id("${AUTO_APPROVE_RULE}")\npermit (principal, action == Action::"call", resource) when { resource in [${set}] };\n`;
}

/**
 * Parses and validates a policy file's text (plus the CAIRN_AUTO_APPROVE rule when tools are
 * named). Returns the policy, or one line per problem.
 */
export function loadApprovalPolicy(text: string, autoApprove: string[] = []): ApprovalPolicy | { problems: string[] } {
  const source = autoApprove.length ? `${text}\n${autoApproveRule(autoApprove)}` : text;
  const parts = cedar.policySetTextToParts(source);
  if (parts.type === 'failure') return { problems: parts.errors.map((e) => `Cedar syntax: ${e.message}`) };
  if (parts.policy_templates.length) return { problems: ['templates (?principal / ?resource) are not supported'] };
  const rules: Rule[] = [];
  const texts: Record<string, string> = {};
  const problems: string[] = [];
  parts.policies.forEach((policyText, index) => {
    const json = cedar.policyToJson(policyText);
    if (json.type === 'failure') return void problems.push(`rule ${index + 1}: ${messages(json.errors)}`);
    const rule = ruleOf(index, json.json.effect, json.json.annotations ?? {});
    if (Array.isArray(rule)) return void problems.push(...rule);
    if (texts[rule.id] !== undefined) return void problems.push(`rule "${rule.id}": two rules have this @id`);
    texts[rule.id] = policyText;
    rules.push(rule);
  });
  if (problems.length) return { problems };
  const checked = cedar.validate({
    schema: POLICY_SCHEMA,
    policies: { staticPolicies: texts },
    validationSettings: { mode: 'strict' },
  });
  if (checked.type === 'failure') return { problems: checked.errors.map((e) => e.message) };
  if (checked.validationErrors.length)
    return { problems: checked.validationErrors.map((e) => `rule "${e.policyId}": ${e.error.message}`) };
  let current = { texts, byId: new Map(rules.map((r) => [r.id, r])) };
  const policy: ApprovalPolicy & { state: () => typeof current } = {
    rules,
    decide: (call) => decide(current.texts, current.byId, call),
    replace(next) {
      if (!isLoaded(next)) throw new Error('replace() takes a policy made by loadApprovalPolicy');
      current = next.state();
      policy.rules = next.rules;
    },
    state: () => current,
  };
  return policy;
}

function isLoaded(
  policy: ApprovalPolicy,
): policy is ApprovalPolicy & { state: () => { texts: Record<string, string>; byId: Map<string, Rule> } } {
  return 'state' in policy && typeof policy.state === 'function';
}

/** The Cedar context of a call: facts about its arguments. */
export function callContext(call: PolicyCallInput): Context {
  const args = typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : {};
  const given = args as Record<string, unknown>;
  const context: Context = {
    effect: call.effect,
    authenticated: call.principal !== undefined,
    size: JSON.stringify(call.arguments ?? {}).length,
  };
  if (typeof given.path === 'string') context.path = given.path;
  if (typeof given.url === 'string') {
    context.url = given.url;
    try {
      const url = new URL(given.url);
      context.host = url.hostname.toLowerCase();
      context.scheme = url.protocol.replace(/:$/, '');
    } catch {
      // Not a URL: the tool refuses it anyway; rules on host and scheme simply do not match.
    }
    // http_fetch's method defaults to GET: a rule on the method sees what the call will do.
    context.method = 'GET';
  }
  if (typeof given.method === 'string') context.method = given.method.toUpperCase();
  return context;
}

function decide(texts: Record<string, string>, rules: Map<string, Rule>, call: PolicyCallInput): PolicyDecision {
  const principal = call.principal ?? { id: ANONYMOUS, roles: [] };
  const user = { type: 'User', id: principal.id };
  const answer = cedar.isAuthorized({
    principal: user,
    action: { type: 'Action', id: 'call' },
    resource: { type: 'Tool', id: call.tool },
    context: callContext(call),
    schema: POLICY_SCHEMA,
    validateRequest: true,
    policies: { staticPolicies: texts },
    entities: [
      { uid: user, attrs: {}, parents: principal.roles.map((id) => ({ type: 'Role', id })) },
      ...principal.roles.map((id) => ({ uid: { type: 'Role', id }, attrs: {}, parents: [] })),
      { uid: { type: 'Tool', id: call.tool }, attrs: {}, parents: [] },
    ],
  });
  // A request the policy cannot judge never runs unasked: a person decides.
  if (answer.type === 'failure')
    return { decision: 'ask', rule: `${DEFAULT_RULE} (policy error: ${messages(answer.errors)})` };
  const { decision, diagnostics } = answer.response;
  const matched = diagnostics.reason.map((id) => rules.get(id)).filter((r): r is Rule => r !== undefined);
  const errored = diagnostics.errors.length > 0;
  const [firstMatch] = matched;
  if (decision === 'deny' && firstMatch) return { decision: 'deny', rule: firstMatch.id };
  if (decision === 'allow' && firstMatch) {
    const asks = matched.filter((r) => r.decision === 'ask');
    if (asks.length || errored) {
      const first = asks[0] ?? firstMatch;
      const approvers = Math.max(1, ...asks.map((r) => r.approvers ?? 1));
      const role = asks.find((r) => r.role)?.role;
      const never = asks.some((r) => r.reuse === 'never') ? { reuse: 'never' as const } : {};
      const outcome = { ...(role ? { role } : {}), ...(approvers > 1 ? { approvers } : {}), ...never };
      return { decision: 'ask', rule: first.id, ...outcome };
    }
    return { decision: 'allow', rule: firstMatch.id };
  }
  // No rule matched: as without a policy — a write waits for a person, a read runs.
  return { decision: call.effect === 'write' || errored ? 'ask' : 'allow', rule: DEFAULT_RULE };
}
