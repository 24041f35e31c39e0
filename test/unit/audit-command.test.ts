/**
 * `cairn audit` as text (client/agents/cli/audit-command.ts): an agent with no decision yet says so,
 * rather than printing an empty line; entries are one line each, oldest first.
 */
import type { AuditEntry } from '../../client/agents/audit-entries';
import { formatAudit } from '../../client/agents/cli/audit-command';

test('an audit with nothing in it says so', () => {
  expect(formatAudit('agent-7', [])).toBe('no decisions on agent-7 yet');
});

test('entries are one line each, oldest first', () => {
  const entries = [
    { at: '2026-01-01T00:00:00.000Z', what: 'paused', by: 'olga' },
    { at: '2026-01-01T00:01:00.000Z', what: 'resumed', by: 'olga' },
  ] as unknown as AuditEntry[];
  expect(formatAudit('agent-7', entries).split('\n')).toEqual([
    '2026-01-01T00:00:00.000Z  paused by olga',
    '2026-01-01T00:01:00.000Z  resumed by olga',
  ]);
});
