/**
 * `cairn definitions`: the agent definitions — the built-in `cairn` and those of the
 * `CAIRN_AGENTS` module, or, with CAIRN_API_URL set, the server's (`GET /api/agent-definitions`) —
 * each with its version (first 12 hex digits) and description. A broken module stops it with
 * the module, the definition and each field's path named.
 */
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import { definitionSummary } from '../definition-summary';
import { knownEndpoints, loadDefinitionRegistry } from '../load-definitions';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import type { DefinitionSummary } from '../definition-summary';
import { EXIT } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** Runs the command; resolves with its exit code. */
export async function definitionsCommand(options: { json?: boolean }): Promise<number> {
  const target = cliApi();
  const definitions = target
    ? await new CairnApi(target).definitions()
    : (await loadedRegistry()).list().map(definitionSummary);
  printLine(options.json ? JSON.stringify(definitions, null, 2) : formatDefinitions(definitions));
  return EXIT.ok;
}

/** The registry of this configuration's CAIRN_AGENTS, checked against its endpoints. */
function loadedRegistry() {
  const config = loadConfigOrExit();
  return loadDefinitionRegistry(config.definitions.module, process.cwd(), knownEndpoints(config));
}

/** One line per definition for people: name, short version, label, description. */
export function formatDefinitions(definitions: readonly DefinitionSummary[]): string {
  const width = Math.max(...definitions.map((d) => d.name.length));
  const lines = definitions.map((d) =>
    [d.name.padEnd(width), d.version.slice(0, 12), d.label ? `(${d.label}) ${d.description}` : d.description].join(
      '  ',
    ),
  );
  return definitions.some((d) => d.name !== 'cairn')
    ? lines.join('\n')
    : [...lines, '(only the built-in definition: name a module of defineAgent definitions in CAIRN_AGENTS)'].join('\n');
}
