/**
 * Every interaction kind the agent knows (the modules listed in
 * workflows/model/interactions/kinds/registry.ts) has a control on the web page and a prompt in the
 * CLI, and neither has one for a kind that does not exist: a kind added without them fails
 * here, before a person meets an interaction nothing can answer. The page's controls are read
 * from its modules as the server serves them (`/web/kind-controls.js` and what it imports), run
 * as browser ES modules in a separate Node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND_PROMPTS } from '../../client/agents/cli/kind-prompts';
import { INTERACTION_KINDS } from '../../workflows/model/interactions/kinds/registry';
import { unusedAgents } from '../harness/config-errors';
import { appOver } from '../harness/http-app';

const agents = unusedAgents('no agent route is called');

/** The page's modules `entry` needs, as served, written into `dir`; their relative imports followed. */
async function writeServedModules(dir: string, entry: string): Promise<void> {
  const app = appOver(agents);
  const pending = [entry];
  const written = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (written.has(name)) continue;
    const res = await app.request(`/web/${name}`);
    expect([name, res.status]).toEqual([name, 200]);
    const code = await res.text();
    writeFileSync(join(dir, name), code);
    written.add(name);
    pending.push(...[...code.matchAll(/from '\.\/([\w.-]+\.js)'/g)].flatMap((m) => (m[1] ? [m[1]] : [])));
  }
}

test('the web page has a control and the CLI a prompt for every interaction kind, and for no other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kind-controls-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeServedModules(dir, 'kind-controls.js');
    const script =
      "import { KIND_CONTROLS } from './kind-controls.js'; console.log(JSON.stringify(Object.keys(KIND_CONTROLS)));";
    writeFileSync(join(dir, 'run.js'), script);
    const page = JSON.parse(execFileSync(process.execPath, [join(dir, 'run.js')], { encoding: 'utf8' })) as string[];
    const kinds = [...INTERACTION_KINDS].sort();
    expect(kinds.length).toBeGreaterThan(0);
    expect({ page: [...page].sort(), cli: Object.keys(KIND_PROMPTS).sort() }).toEqual({ page: kinds, cli: kinds });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
