import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { agentWorkspaceDir, workspaceFolderName, workspaceOwner } from '../../config/agent-workspace';

describe('agent workspace folders', () => {
  it('gives step children, nested agents and thread turns their root owner', () => {
    expect(workspaceOwner('brief-ab12')).toBe('brief-ab12');
    expect(workspaceOwner('brief-ab12/step-s1')).toBe('brief-ab12');
    expect(workspaceOwner('brief-ab12/step-s1/sub-2')).toBe('brief-ab12');
    expect(workspaceOwner('thread-x-1/turn-3/step-a')).toBe('thread-x-1');
  });

  it('uses a safe id as it is and hashes anything else', () => {
    expect(workspaceFolderName('task-9f3a')).toBe('task-9f3a');
    for (const id of ['..', 'a..b', '.hidden', '-dash', 'sp ace', 'ü', '', 'x'.repeat(201)]) {
      const name = workspaceFolderName(id);
      const hex = createHash('sha256').update(id).digest('hex').slice(0, 32);
      expect(name).toBe(`agent-${hex}`);
    }
  });

  it('places the folder directly under the root', () => {
    expect(agentWorkspaceDir('/ws', 'brief-ab12/step-s1')).toBe(join('/ws', 'brief-ab12'));
    expect(agentWorkspaceDir('/ws', '../../etc/step-x')).toMatch(/^\/ws\/agent-[0-9a-f]{32}$/);
  });
});
