/**
 * Approval policies in Cedar (docs/operations.md#approval-policies): the decision matrix — path
 * globs, URL hosts, HTTP methods, size, the agent's principal and roles, forbid over permit,
 * ask with a role and two approvers, no rule matching, CAIRN_AUTO_APPROVE as a rule — and the
 * policy files refused at start, by the loader and by a real `npm run worker` process; and the
 * reload SIGHUP triggers.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApprovalPolicy, type ApprovalPolicy } from '../../activities/policy/approval-policy';
import { ConfigError, loadConfig } from '../../config/config';
import type { PolicyCallInput } from '../../workflows/model/tools/policy-decision';
import { reloadPolicy } from '../../worker/reload-policy';
import { agentCarrySchema } from '../../workflows/model/agent/agent-carry';

const ROOT = join(__dirname, '..', '..');

const POLICY = `
@id("notes-free")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "notes/*" };

@id("no-env")
forbid (principal, action, resource)
when { context has path && context.path like "*.env" };

@id("internal-get")
permit (principal, action == Action::"call", resource == Tool::"http_fetch")
when { context has host && context.host like "*.internal.example" && context has method && context.method == "GET" };

@id("post-by-admin")
@decision("ask")
@role("admin")
permit (principal, action == Action::"call", resource == Tool::"http_fetch")
when { context has method && context.method == "POST" };

@id("no-evil-host")
forbid (principal, action, resource == Tool::"http_fetch")
when { context has host && context.host == "evil.example" };

@id("big-writes-need-two")
@decision("ask")
@approvers("2")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context.size > 1000 };

@id("ops-scripts")
permit (principal in Role::"operator", action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "scripts/*.sh" };
`;

function load(text: string, autoApprove: string[] = []): ApprovalPolicy {
  const loaded = loadApprovalPolicy(text, autoApprove);
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded;
}

const policy = load(POLICY);
const write = (args: Record<string, unknown>, principal?: PolicyCallInput['principal']): PolicyCallInput => ({
  tool: 'write_file',
  effect: 'write',
  arguments: args,
  ...(principal ? { principal } : {}),
});
const fetch = (url: string, method?: string): PolicyCallInput => ({
  tool: 'http_fetch',
  effect: method === undefined || method === 'GET' ? 'read' : 'write',
  arguments: { url, ...(method ? { method } : {}) },
});

test('path globs: a matching path is allowed, a forbidden one denied (forbid wins over permit), others ask', () => {
  expect(policy.decide(write({ path: 'notes/a.md', content: 'x' }))).toEqual({ decision: 'allow', rule: 'notes-free' });
  expect(policy.decide(write({ path: 'notes/deep/b.md', content: 'x' }))).toEqual({
    decision: 'allow',
    rule: 'notes-free',
  });
  expect(policy.decide(write({ path: 'notes/prod.env', content: 'x' }))).toEqual({ decision: 'deny', rule: 'no-env' });
  expect(policy.decide(write({ path: 'src/a.ts', content: 'x' }))).toEqual({ decision: 'ask', rule: 'default' });
});

test('URL hosts: a host glob allows, a named host is denied, another host falls to the default', () => {
  expect(policy.decide(fetch('https://api.internal.example/v1'))).toEqual({ decision: 'allow', rule: 'internal-get' });
  expect(policy.decide(fetch('https://EVIL.example/x'))).toEqual({ decision: 'deny', rule: 'no-evil-host' });
  // A read that no rule names runs, as without a policy.
  expect(policy.decide(fetch('https://example.org/'))).toEqual({ decision: 'allow', rule: 'default' });
});

test('HTTP methods: GET (also when left out) reads, POST asks an admin, a POST to a denied host is denied', () => {
  expect(policy.decide(fetch('https://api.internal.example/v1', 'GET'))).toEqual({
    decision: 'allow',
    rule: 'internal-get',
  });
  expect(policy.decide(fetch('https://api.internal.example/v1', 'post'))).toEqual({
    decision: 'ask',
    rule: 'post-by-admin',
    role: 'admin',
  });
  expect(policy.decide(fetch('https://evil.example/v1', 'POST'))).toEqual({ decision: 'deny', rule: 'no-evil-host' });
});

test('size: a large write asks two people even where a smaller one runs unasked', () => {
  expect(policy.decide(write({ path: 'notes/big.md', content: 'x'.repeat(2000) }))).toEqual({
    decision: 'ask',
    rule: 'big-writes-need-two',
    approvers: 2,
  });
});

test('@reuse("never"): the ask says an earlier turn\'s approval never stands for the call; other asks say nothing', () => {
  const never = load(`${POLICY}
@id("secrets-every-time")
@decision("ask")
@reuse("never")
permit (principal, action == Action::"call", resource == Tool::"write_file")
when { context has path && context.path like "secrets/*" };
`);
  expect(never.decide(write({ path: 'secrets/key.txt', content: 'x' }))).toEqual({
    decision: 'ask',
    rule: 'secrets-every-time',
    reuse: 'never',
  });
  expect(never.decide(write({ path: 'notes/big.md', content: 'x'.repeat(2000) }))).toEqual({
    decision: 'ask',
    rule: 'big-writes-need-two',
    approvers: 2,
  });
});

test("the agent's principal and roles: an operator's agent may write scripts, anybody else's asks", () => {
  const call = { path: 'scripts/deploy.sh', content: 'echo' };
  expect(policy.decide(write(call, { id: 'ops', roles: ['operator'] }))).toEqual({
    decision: 'allow',
    rule: 'ops-scripts',
  });
  expect(policy.decide(write(call, { id: 'ana', roles: ['approver'] }))).toEqual({ decision: 'ask', rule: 'default' });
  expect(policy.decide(write(call))).toEqual({ decision: 'ask', rule: 'default' });
});

test('CAIRN_AUTO_APPROVE is one allow rule among the others: it allows its tools, a forbid still wins', () => {
  const withShorthand = load(POLICY, ['write_file']);
  expect(withShorthand.decide(write({ path: 'src/a.ts', content: 'x' }))).toEqual({
    decision: 'allow',
    rule: 'CAIRN_AUTO_APPROVE',
  });
  expect(withShorthand.decide(write({ path: 'x.env', content: 'x' }))).toEqual({ decision: 'deny', rule: 'no-env' });
  // An ask rule is stricter than the shorthand's allow.
  expect(withShorthand.decide(write({ path: 'a', content: 'x'.repeat(2000) }))).toMatchObject({ decision: 'ask' });
});

test('bad policy files are refused, one line per problem naming the rule', () => {
  const problems = (text: string) => {
    const loaded = loadApprovalPolicy(text);
    return 'problems' in loaded ? loaded.problems : [];
  };
  expect(problems('@id("a") permit (principal, action, resource) when { ;')).toEqual([
    expect.stringMatching(/^Cedar syntax: /),
  ]);
  expect(problems('permit (principal, action, resource);')).toEqual([
    'rule 1: needs an @id("...") annotation (the audit names the rule by it)',
  ]);
  expect(problems('@id("a") @decision("maybe") permit (principal, action, resource);')).toEqual([
    'rule "a": @decision("maybe") on a permit rule; expected allow or ask',
  ]);
  expect(problems('@id("a") @decision("ask") @role("boss") permit (principal, action, resource);')).toEqual([
    'rule "a": @role("boss") is not a role; expected one of viewer, operator, approver, admin',
  ]);
  expect(problems('@id("a") @decision("ask") @approvers("two") permit (principal, action, resource);')).toEqual([
    'rule "a": @approvers("two") must be a whole number from 1 to 5',
  ]);
  expect(problems('@id("a") @decision("ask") @reuse("once") permit (principal, action, resource);')).toEqual([
    'rule "a": @reuse("once") is not known; expected @reuse("never")',
  ]);
  expect(problems('@id("a") @reuse("never") permit (principal, action, resource);')).toEqual([
    'rule "a": @role, @approvers and @reuse only go with @decision("ask")',
  ]);
  expect(
    problems('@id("a") permit (principal, action, resource);\n@id("a") forbid (principal, action, resource);'),
  ).toEqual(['rule "a": two rules have this @id']);
  // Validated against the schema: an unknown attribute, an optional one read without `has`.
  expect(problems('@id("a") permit (principal, action, resource) when { context.pth == "x" };')[0]).toMatch(
    /^rule "a": .*pth/,
  );
  expect(problems('@id("a") permit (principal, action, resource) when { context.path like "x*" };')[0]).toMatch(
    /^rule "a": .*optional attribute `path`/,
  );
});

test('the configuration loader refuses a bad or missing policy file, naming the variable and the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-policy-'));
  const bad = join(dir, 'bad.cedar');
  writeFileSync(bad, 'permit (principal, action, resource);');
  const lines = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) return err.lines;
    }
    throw new Error('expected a ConfigError');
  };
  expect(lines({ CAIRN_POLICY_FILE: bad })).toEqual([
    `CAIRN_POLICY_FILE (${bad}): rule 1: needs an @id("...") annotation (the audit names the rule by it)`,
  ]);
  expect(lines({ CAIRN_POLICY_FILE: join(dir, 'missing.cedar') })[0]).toMatch(
    /^CAIRN_POLICY_FILE: cannot read .*ENOENT/,
  );
  const good = join(dir, 'good.cedar');
  writeFileSync(good, POLICY);
  expect(loadConfig({ CAIRN_POLICY_FILE: good }).tools.policy?.rules.map((r) => r.id)).toContain('no-env');
  expect(loadConfig({}).tools.policy).toBeUndefined();
});

test('npm run worker with an invalid policy file exits 2 (bad configuration) and says which rule is wrong', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-policy-'));
  const bad = join(dir, 'bad.cedar');
  writeFileSync(bad, '@id("notes") permit (principal, action, resource) when { context.path like "notes/*" };');
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, CAIRN_POLICY_FILE: bad, TEMPORAL_ADDRESS: '127.0.0.1:1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/CAIRN_POLICY_FILE \(.*bad\.cedar\): rule "notes": .*optional attribute `path`/);
}, 60_000);

test('a reload puts a valid file in force from the next decision; an invalid one is refused and the old policy stays', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-policy-'));
  const file = join(dir, 'policy.cedar');
  writeFileSync(file, POLICY);
  const env = { CAIRN_POLICY_FILE: file, CAIRN_AUTO_APPROVE: 'greet' };
  const config = loadConfig(env);
  const inForce = config.tools.policy;
  const src = write({ path: 'src/a.ts', content: 'x' });
  expect(inForce?.decide(src)).toEqual({ decision: 'ask', rule: 'default' });

  writeFileSync(
    file,
    '@id("src-free") permit (principal, action, resource) when { context has path && context.path like "src/*" };',
  );
  expect(reloadPolicy(config, env)).toBe(
    `SIGHUP: approval policy reloaded from ${file} (src-free, CAIRN_AUTO_APPROVE)`,
  );
  expect(inForce?.decide(src)).toEqual({ decision: 'allow', rule: 'src-free' });
  expect(inForce?.decide(write({ path: 'notes/prod.env', content: 'x' }))).toEqual({
    decision: 'ask',
    rule: 'default',
  });

  writeFileSync(file, '@id("broken") permit (principal, action, resource) when { context.path == "x" };');
  expect(reloadPolicy(config, env)).toMatch(
    /^SIGHUP: kept the approval policy in force; .* is invalid:\n {2}CAIRN_POLICY_FILE \(.*\): rule "broken": /,
  );
  expect(inForce?.decide(src)).toEqual({ decision: 'allow', rule: 'src-free' });

  expect(reloadPolicy(loadConfig({}), {})).toBe(
    'SIGHUP: no approval policy to reload (CAIRN_POLICY_FILE was not set at start)',
  );
});

test("continue-as-new keeps a catalogue entry's policy mark, so calls after the boundary are still decided by the policy", () => {
  const entry = {
    name: 'write_file',
    description: 'w',
    effect: 'write',
    idempotent: true,
    needsApproval: true,
    parameters: {},
    policy: true,
  };
  expect(agentCarrySchema.shape.tools.parse([entry])).toEqual([entry]);
});
