/**
 * `npm start`'s Node check (scripts/node-check.js): a Node older than package.json's `engines`
 * is refused with one line naming the way to Node 24; an equal or newer one passes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeRefusal } from '../../scripts/node-check';

const engines = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

test('package.json asks for Node 22.12 or newer', () => {
  expect(engines).toBe('>=22.12');
});

test.each(['20.18.0', 'v18.20.4', '22.11.0', '21.7.3'])(
  'Node %s is refused in one line saying how to get Node 24',
  (v) => {
    const line = nodeRefusal(v, engines);
    expect(line).toContain(`Node.js ${v.replace(/^v/, '')} is older than this project needs (>=22.12)`);
    expect(line).toContain('bash scripts/ensure-node.sh');
    expect(line).not.toContain('\n');
  },
);

test.each(['22.12.0', 'v22.12.0', '22.20.1', '24.21.0', '25.0.0'])('Node %s passes', (v) => {
  expect(nodeRefusal(v, engines)).toBeUndefined();
});

test('a range it cannot read refuses nothing', () => {
  expect(nodeRefusal('20.0.0', '^22 || ^24')).toBeUndefined();
});

test('run as npm start runs it: silent and 0 on this Node', () => {
  const run = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'node-check.js')], {
    encoding: 'utf8',
  });
  expect({ status: run.status, out: run.stdout + run.stderr }).toEqual({ status: 0, out: '' });
});
