/** Approval digests (bound to tool + arguments, key order irrelevant) and expiry answers. */
import { expiryAnswer } from '../../workflows/model/interactions/expiry-answer';
import type { InteractionSpec } from '../../workflows/model/interactions/interaction-types';
import { approvalDigest, canonicalJson } from '../../workflows/step/approval-digest';
import { cutOutput } from '../../workflows/model/tools/cut-output';

test('canonical JSON sorts keys at every level and drops undefined', () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
    '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
  );
});

test('the digest is the same for the same arguments in any key order, and differs otherwise', () => {
  const digest = approvalDigest('write_file', { path: 'a', content: 'x' });
  expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(approvalDigest('write_file', { content: 'x', path: 'a' })).toBe(digest);
  expect(approvalDigest('write_file', { path: 'a', content: 'y' })).not.toBe(digest);
  expect(approvalDigest('other_tool', { path: 'a', content: 'x' })).not.toBe(digest);
});

test('expired interactions resolve by policy', () => {
  const approval: InteractionSpec = {
    kind: 'tool.approval',
    prompt: 'p',
    tool: 't',
    arguments: {},
    digest: 'sha256:d',
  };
  expect(expiryAnswer(approval, 'default')).toEqual({
    decision: 'reject',
    digest: 'sha256:d',
    reason: 'nobody approved it in time',
  });
  const check: InteractionSpec = {
    kind: 'plan.check',
    prompt: 'p',
    revision: 1,
    plan: { task: 't', language: 'en', steps: [], replan: [] },
  };
  expect(expiryAnswer(check, 'default')).toEqual({ decision: 'confirm' });
  expect(expiryAnswer(check, 'reject')).toEqual({ decision: 'cancel' });
  expect(expiryAnswer({ kind: 'step.failure', prompt: 'p', error: 'e' }, 'default')).toEqual({ decision: 'skip' });
  expect(expiryAnswer({ kind: 'step.failure', prompt: 'p', error: 'e' }, 'reject')).toEqual({ decision: 'abort' });
  const form: InteractionSpec = {
    kind: 'ask.form',
    prompt: 'p',
    fields: [
      { key: 'n', label: 'N', type: 'number', required: false, default: 3 },
      { key: 's', label: 'S', type: 'input', required: true },
    ],
  };
  expect(expiryAnswer(form, 'default')).toEqual({ values: { n: 3 } });
  expect(expiryAnswer({ kind: 'ask.query', prompt: 'p' }, 'default')).toEqual({
    text: '(no answer: the question expired)',
  });
});

test('long tool output is cut to head and tail with the original length marked', () => {
  expect(cutOutput('short')).toBe('short');
  const long = `${'a'.repeat(1500)}${'b'.repeat(1500)}`;
  const cut = cutOutput(long);
  expect(cut.startsWith('a'.repeat(1000))).toBe(true);
  expect(cut.endsWith('b'.repeat(1000))).toBe(true);
  expect(cut).toContain('[… 1000 of 3000 characters cut …]');
  expect(cutOutput('x'.repeat(30), { head: 5, tail: 5 })).toBe('xxxxx\n[… 20 of 30 characters cut …]\nxxxxx');
});
