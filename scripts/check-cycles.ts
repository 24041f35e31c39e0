/**
 * Fails (exit 1) on any import cycle between the project's own TypeScript files, type-only
 * imports included. Run by `npm run lint` and by `npm run checks` (and so by `npm test`).
 *
 * Why not only `import-x/no-cycle`: that rule skips `import type` and all-`type` specifier
 * lists, so a cycle closed by a type import passes lint, yet it still couples the modules
 * both ways and breaks the layering (workflow code ↔ client, step ↔ agent).
 *
 * The graph: every file of tsconfig.json; an edge for each `import`, `export … from`,
 * `import x = require(…)`, `require(…)`, `import(…)` and `import('…').T` type whose
 * specifier TypeScript resolves to another file of the project (packages are not followed).
 * Each strongly connected component of that graph is reported once, with one concrete cycle
 * through it and the line of each import on the way.
 *
 * Then the same at folder level inside workflows/: each folder of workflows/ (and each file at
 * its root) is one node, with an edge where any file of one imports any file of another. Two
 * folders that import each other, directly or round a longer loop, fail even when no file cycle
 * closes: the folders are the layers (base/ → model/ → contract/ → runtime/ → the orchestrators,
 * CONTRIBUTING.md), and a loop between them means one of them is in the wrong place.
 */
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import of a project file by another. */
interface Edge {
  to: string;
  line: number;
}

const ROOT = dirname(__dirname);

function loadProject(): { files: string[]; options: ts.CompilerOptions } {
  const configPath = ts.findConfigFile(ROOT, (path) => ts.sys.fileExists(path), 'tsconfig.json');
  if (!configPath) throw new Error(`no tsconfig.json in ${ROOT}`);
  const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  return { files: parsed.fileNames, options: parsed.options };
}

/** Every module specifier in `source`, with its line, type-only forms included. */
function specifiers(source: ts.SourceFile): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function importGraph(files: string[], options: ts.CompilerOptions): Map<string, Edge[]> {
  const inProject = new Set(files);
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const text = ts.sys.readFile(file) ?? '';
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const edges: Edge[] = [];
    for (const { text: spec, line } of specifiers(source)) {
      const resolved = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport && inProject.has(resolved.resolvedFileName)) {
        edges.push({ to: resolved.resolvedFileName, line });
      }
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Tarjan's algorithm: the strongly connected components that hold a cycle. */
function cyclicComponents(graph: Map<string, Edge[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const { to } of graph.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = (graph.get(node) ?? []).some((edge) => edge.to === node);
    if (component.length > 1 || selfImport) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** The shortest cycle from `start` back to itself inside `component`, as edges taken. */
function shortestCycle(graph: Map<string, Edge[]>, component: string[], start: string): { from: string; edge: Edge }[] {
  const members = new Set(component);
  const cameFrom = new Map<string, { from: string; edge: Edge }>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const edge of graph.get(node) ?? []) {
      if (!members.has(edge.to) || cameFrom.has(edge.to)) continue;
      cameFrom.set(edge.to, { from: node, edge });
      if (edge.to === start) {
        const path: { from: string; edge: Edge }[] = [];
        for (let at = start; ;) {
          const step = cameFrom.get(at)!;
          path.unshift(step);
          at = step.from;
          if (at === start) return path;
        }
      }
      queue.push(edge.to);
    }
  }
  throw new Error(`no cycle through ${start}`);
}

/** The folder (or root file) of `layer` that holds `file`, or undefined outside it. */
function unitOf(file: string, layer: string): string | undefined {
  const path = relative(layer, file);
  if (path.startsWith('..')) return undefined;
  return path.split(sep)[0];
}

/**
 * The graph between the folders of `layer`: an edge per pair of folders, through the first
 * import found (its file and line stand for the rest).
 */
function folderGraph(
  graph: Map<string, Edge[]>,
  layer: string,
): { units: Map<string, Edge[]>; via: Map<string, string> } {
  const units = new Map<string, Edge[]>();
  const via = new Map<string, string>();
  for (const [file, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const from = unitOf(file, layer);
    if (from === undefined) continue;
    if (!units.has(from)) units.set(from, []);
    for (const edge of edges) {
      const to = unitOf(edge.to, layer);
      if (to === undefined || to === from || units.get(from)!.some((e) => e.to === to)) continue;
      units.get(from)!.push({ to, line: edge.line });
      via.set(`${from}\0${to}`, `${relative(ROOT, file)}:${edge.line} imports ${relative(ROOT, edge.to)}`);
    }
  }
  return { units, via };
}

function main(): void {
  const { files, options } = loadProject();
  const graph = importGraph(files, options);
  const components = cyclicComponents(graph);
  const rel = (file: string): string => relative(ROOT, file);
  for (const component of components) {
    const cycle = shortestCycle(graph, component, component[0]!);
    console.error(`Import cycle (${component.length} files: ${component.map(rel).join(', ')}):`);
    for (const { from, edge } of cycle) console.error(`  ${rel(from)}:${edge.line} imports ${rel(edge.to)}`);
  }
  const layer = join(ROOT, 'workflows');
  const { units, via } = folderGraph(graph, layer);
  const folderCycles = cyclicComponents(units);
  for (const component of folderCycles) {
    const cycle = shortestCycle(units, component, component[0]!);
    console.error(`Folder cycle in workflows/ (${component.join(', ')}):`);
    for (const { from, edge } of cycle) console.error(`  ${from} → ${edge.to}: ${via.get(`${from}\0${edge.to}`)}`);
  }
  if (components.length === 0 && folderCycles.length === 0) {
    console.log(
      `check-cycles: no import cycles among ${graph.size} files, nor among the ${units.size} folders and root files of workflows/ (type imports included).`,
    );
    return;
  }
  if (components.length > 0)
    console.error(
      `check-cycles: ${components.length} import cycle(s); move what both sides share to a neutral module.`,
    );
  if (folderCycles.length > 0)
    console.error(
      `check-cycles: ${folderCycles.length} folder cycle(s) in workflows/; move the module that points up to the layer it belongs to.`,
    );
  process.exit(1);
}

main();
