/**
 * The plan as a dependency graph: dagre lays the steps out left to right, and this draws them
 * as SVG — one rounded box per step coloured by its live status (`status-<status>` classes in
 * style.css), one arrow per dependency. And an agent graph (`agentGraph`): its nodes with their
 * marks and visits, each condition on its edge, and each loop as a curve under the nodes.
 */
import dagre from '/vendor/dagre.js';
import { conditionText, loopEdges, nodeMarks } from './rules.js';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 190;
const NODE_H = 56;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function s(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** @param {string} text @param {number} max */
const cut = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** An arrow-head marker, referred to as `url(#<id>)`. @param {string} id */
function arrowDefs(id) {
  const defs = s('defs', {});
  const marker = s('marker', { id, viewBox: '0 0 10 10', refX: 10, refY: 5 });
  marker.setAttribute('markerWidth', '7');
  marker.setAttribute('markerHeight', '7');
  marker.setAttribute('orient', 'auto-start-reverse');
  marker.append(s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
  defs.append(marker);
  return defs;
}

/**
 * Draws the plan.
 * @param {{ id: string, title: string, depends_on: string[] }[]} steps
 * @param {Record<string, string>} statuses step id → status (missing = pending)
 * @returns {SVGSVGElement}
 */
export function planGraph(steps, statuses) {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 56, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(steps.map((step) => step.id));
  for (const step of steps) g.setNode(step.id, { width: NODE_W, height: NODE_H });
  for (const step of steps) {
    for (const dep of step.depends_on) if (ids.has(dep)) g.setEdge(dep, step.id);
  }
  dagre.layout(g);
  const { width = 0, height = 0 } = g.graph();

  const svg = /** @type {SVGSVGElement} */ (
    s('svg', { class: 'plan-graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' })
  );
  svg.setAttribute('aria-label', 'plan graph');
  svg.append(arrowDefs('arrow'));

  for (const edge of g.edges()) {
    const points = g.edge(edge).points ?? [];
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
    svg.append(s('path', { d, class: 'edge', 'marker-end': 'url(#arrow)', 'data-from': edge.v, 'data-to': edge.w }));
  }
  for (const step of steps) {
    const node = g.node(step.id);
    const status = statuses[step.id] ?? 'pending';
    const group = s('g', {
      class: `node status-${status.replace(/\s+/g, '-')}`,
      'data-step-id': step.id,
      'data-status': status,
      transform: `translate(${node.x - NODE_W / 2},${node.y - NODE_H / 2})`,
    });
    group.append(s('title', {}, `${step.id}: ${step.title} (${status})`));
    group.append(s('rect', { width: NODE_W, height: NODE_H, rx: 8, ry: 8 }));
    group.append(s('text', { x: 10, y: 22, class: 'node-title' }, cut(`${step.id} · ${step.title}`, 26)));
    group.append(s('text', { x: 10, y: 42, class: 'node-status' }, status));
    svg.append(group);
  }
  return svg;
}

const G_NODE_W = 200;
const G_NODE_H = 82;
/** Longest condition shown on an edge (the whole text is the label's tooltip). */
const LABEL_MAX = 34;
/** About one character of an 11px label: dagre needs a label's size before it is drawn. */
const CHAR_W = 6.4;

/** @typedef {{ visits: number, status: string, current: boolean }} NodeLive */

/**
 * Draws an agent graph left to right: each node with its title, id and marks (entry — a dot
 * with an arrow in —, end — a double border —, join all, structured output) and its visits so
 * far (of the graph's `maxIterations`) with the latest visit's status, the running visit's node
 * marked `current`; each edge, a conditional one labelled with its condition; each edge that
 * closes a loop as a curve under the nodes, labelled `↺ to <node>` (dagre lays out the rest,
 * which has no cycle, so every node stands after the nodes that lead to it).
 * @param {any} graph the state's graph (defaults filled)
 * @param {Map<string, NodeLive>} live each node's visits and its latest visit's status
 * @param {Map<string, number>} taken how often the path took an edge, by `from→to`
 * @returns {SVGSVGElement}
 */
export function agentGraph(graph, live, taken) {
  const loops = loopEdges(graph);
  const ids = new Set(graph.nodes.map((/** @type {any} */ n) => n.id));
  const known = (/** @type {any} */ edge) => ids.has(edge.from) && ids.has(edge.to);
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 72, marginx: 40, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width: G_NODE_W, height: G_NODE_H });
  graph.edges.forEach((/** @type {any} */ edge, /** @type {number} */ index) => {
    if (loops.has(index) || !known(edge)) return;
    const label = cut(conditionText(edge), LABEL_MAX);
    const size = label ? { width: label.length * CHAR_W + 12, height: 18, labelpos: 'c' } : {};
    g.setEdge(edge.from, edge.to, size, String(index));
  });
  dagre.layout(g);
  let { width = 0, height = 0 } = g.graph();

  const edges = s('g', { class: 'edges' });
  const labels = s('g', { class: 'labels' });
  const edgeAttrs = (/** @type {any} */ edge, /** @type {string} */ kind) => {
    const count = taken.get(`${edge.from}→${edge.to}`) ?? 0;
    return {
      class: `edge ${kind}${edge.when ? ' conditional' : ''}${count > 0 ? ' taken' : ''}`,
      'marker-end': 'url(#graph-arrow)',
      'data-from': edge.from,
      'data-to': edge.to,
      'data-taken': count,
    };
  };
  const label = (
    /** @type {string} */ text,
    /** @type {number} */ x,
    /** @type {number} */ y,
    /** @type {any} */ edge,
  ) => {
    const shown = cut(text, LABEL_MAX + 14);
    const w = shown.length * CHAR_W + 12;
    const group = s('g', { class: 'edge-label', 'data-from': edge.from, 'data-to': edge.to });
    group.append(s('title', {}, text));
    group.append(s('rect', { x: x - w / 2, y: y - 10, width: w, height: 18, rx: 4, ry: 4 }));
    group.append(s('text', { x, y: y + 3, 'text-anchor': 'middle' }, shown));
    labels.append(group);
    width = Math.max(width, x + w / 2 + 8);
    height = Math.max(height, y + 14);
  };

  for (const e of g.edges()) {
    const edge = graph.edges[Number(e.name)];
    const laid = g.edge(e);
    const d = (laid.points ?? [])
      .map((/** @type {any} */ p, /** @type {number} */ i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`)
      .join(' ');
    edges.append(s('path', { d, ...edgeAttrs(edge, 'forward') }));
    if (edge.when) label(conditionText(edge), laid.x, laid.y, edge);
  }

  // Loops: curves under every node, each deeper than the one before, so none hides another.
  const bottom = Math.max(...graph.nodes.map((/** @type {any} */ n) => g.node(n.id).y + G_NODE_H / 2));
  let k = 0;
  graph.edges.forEach((/** @type {any} */ edge, /** @type {number} */ index) => {
    if (!loops.has(index) || !known(edge)) return;
    const from = g.node(edge.from);
    const to = g.node(edge.to);
    const depth = bottom + 34 + 30 * k;
    const shift = 14 + 6 * k;
    const [x1, x2] = edge.from === edge.to ? [from.x + 40, to.x - 40] : [from.x - shift, to.x + shift];
    const [y1, y2] = [from.y + G_NODE_H / 2, to.y + G_NODE_H / 2];
    edges.append(
      s('path', { d: `M${x1},${y1} C${x1},${depth} ${x2},${depth} ${x2},${y2}`, ...edgeAttrs(edge, 'loop') }),
    );
    const cond = conditionText(edge);
    const lowest = (y1 + y2) / 8 + (3 * depth) / 4;
    label(`↺ to ${edge.to}${cond ? ` if ${cond}` : ''}`, Math.max((x1 + x2) / 2, 130), lowest + 12, edge);
    k += 1;
  });

  const svg = /** @type {SVGSVGElement} */ (
    s('svg', { class: 'plan-graph agent-graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' })
  );
  svg.setAttribute('aria-label', `agent graph ${graph.name}`);
  svg.append(arrowDefs('graph-arrow'), edges);
  for (const id of graph.entry) {
    const node = ids.has(id) ? g.node(id) : undefined;
    if (!node) continue;
    const left = node.x - G_NODE_W / 2;
    const entry = s('g', { class: 'entry-mark', 'data-node-id': id });
    entry.append(s('circle', { cx: left - 30, cy: node.y, r: 5 }));
    entry.append(
      s('path', { d: `M${left - 25},${node.y} L${left},${node.y}`, class: 'edge', 'marker-end': 'url(#graph-arrow)' }),
    );
    svg.append(entry);
  }
  for (const node of graph.nodes) svg.append(graphNode(graph, node, g.node(node.id), live.get(node.id)));
  svg.append(labels);
  return svg;
}

/**
 * One node of an agent graph, placed at its layout.
 * @param {any} graph
 * @param {any} node
 * @param {{ x: number, y: number }} at
 * @param {NodeLive | undefined} live
 */
function graphNode(graph, node, at, live) {
  const { visits = 0, status = 'pending', current = false } = live ?? {};
  const marks = nodeMarks(graph, node);
  const end = graph.end.includes(node.id);
  const group = s('g', {
    class: `node graph-node status-${status.replace(/\s+/g, '-')}${current ? ' current' : ''}${end ? ' end-node' : ''}`,
    'data-node-id': node.id,
    'data-visits': visits,
    'data-status': status,
    'data-current': String(current),
    transform: `translate(${at.x - G_NODE_W / 2},${at.y - G_NODE_H / 2})`,
  });
  const seen = visits === 0 ? 'not visited' : `visits ${visits} of ${graph.maxIterations} · ${status}`;
  group.append(
    s('title', {}, `${node.id}: ${node.title ?? node.id}${marks.length ? ` (${marks.join(', ')})` : ''} — ${seen}`),
  );
  group.append(s('rect', { width: G_NODE_W, height: G_NODE_H, rx: 8, ry: 8, class: 'node-box' }));
  if (end)
    group.append(s('rect', { x: 4, y: 4, width: G_NODE_W - 8, height: G_NODE_H - 8, rx: 6, ry: 6, class: 'end-ring' }));
  group.append(s('text', { x: 12, y: 20, class: 'node-title' }, cut(node.title ?? node.id, 26)));
  group.append(s('text', { x: 12, y: 36, class: 'node-id' }, cut(node.id, 28)));
  group.append(s('text', { x: 12, y: 52, class: 'node-marks' }, cut(marks.join(' · '), 30)));
  group.append(s('text', { x: 12, y: 70, class: 'node-status node-visits' }, seen));
  return group;
}
