/**
 * `cairn graphs`: the agent graphs registered in the `CAIRN_GRAPHS` module — or, with
 * CAIRN_API_URL set, the server's (`GET /api/graphs`) — with each one's node count and
 * description. A broken module stops it with the module, the graph and each rule code named.
 */
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import type { RegisteredGraph } from '../graph-registry';
import { loadGraphRegistry } from '../load-graphs';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import { EXIT } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** Runs the command; resolves with its exit code. */
export async function graphsCommand(options: { json?: boolean }): Promise<number> {
  const target = cliApi();
  const graphs = target
    ? await new CairnApi(target).graphs()
    : (await loadGraphRegistry(loadConfigOrExit().graphs.module, process.cwd())).list();
  printLine(options.json ? JSON.stringify(graphs, null, 2) : formatGraphs(graphs));
  return EXIT.ok;
}

/** One line per graph for people: name, node count, description; a hint when there are none. */
export function formatGraphs(graphs: readonly RegisteredGraph[]): string {
  if (graphs.length === 0) return 'no graphs registered (name a module of defineGraph graphs in CAIRN_GRAPHS)';
  const width = Math.max(...graphs.map((g) => g.name.length));
  const count = (g: RegisteredGraph) => `${g.graph.nodes.length} node${g.graph.nodes.length === 1 ? '' : 's'}`;
  const countWidth = Math.max(...graphs.map((g) => count(g).length));
  return graphs
    .map((g) => `${g.name.padEnd(width)}  ${count(g).padEnd(countWidth)}  ${g.description ?? ''}`.trimEnd())
    .join('\n');
}
