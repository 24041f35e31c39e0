/** The one `path: message` formatter for zod issues, in both path styles. */
import { z } from 'zod';
import { firstIssuePath, issueLines } from '../../workflows/base/issue-lines';

const servers = z.array(z.object({ name: z.string(), env: z.record(z.string(), z.string()).optional() }));

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected the value to be refused');
  return parsed.error;
}

test('dots: one line per issue, the root when an issue has no path', () => {
  expect(issueLines(errorOf(servers, [{ name: 1 }]), '(value)')).toEqual([
    '0.name: Invalid input: expected string, received number',
  ]);
  expect(issueLines(errorOf(servers, 'x'), '(value)')).toEqual([
    '(value): Invalid input: expected array, received string',
  ]);
});

test('under puts a path before every line, including one with no path of its own', () => {
  expect(issueLines(errorOf(servers, 'x'), '(value)', 'spec')).toEqual([
    'spec: Invalid input: expected array, received string',
  ]);
  expect(issueLines(errorOf(servers, [{ name: 'a', env: { A: 1 } }]), '(value)', 'spec')).toEqual([
    'spec.0.env.A: Invalid input: expected string, received number',
  ]);
});

test('brackets: array indexes as in JavaScript, right after the name before them', () => {
  const error = errorOf(servers, [{ name: 'a' }, { name: 'b', env: { A: 1 } }]);
  expect(issueLines(error, 'SERVERS', 'SERVERS', 'brackets')).toEqual([
    'SERVERS[1].env.A: Invalid input: expected string, received number',
  ]);
  expect(issueLines(errorOf(z.array(z.array(z.string())), [['a', 2]]), 'list', undefined, 'brackets')).toEqual([
    '[0][1]: Invalid input: expected string, received number',
  ]);
});

test("firstIssuePath: the first issue's dotted path, empty when it is about the value itself", () => {
  expect(firstIssuePath(errorOf(servers, [{ name: 'a' }, { name: 2 }, { name: 3 }]))).toBe('1.name');
  expect(firstIssuePath(errorOf(servers, 'x'))).toBe('');
});
