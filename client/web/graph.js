/**
 * The plan as a dependency graph: dagre lays the steps out left to right, and this draws them
 * as SVG — one rounded box per step coloured by its live status (`status-<status>` classes in
 * style.css), one arrow per dependency.
 */
import dagre from '/vendor/dagre.js';

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
  const defs = s('defs', {});
  const marker = s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5 });
  marker.setAttribute('markerWidth', '7');
  marker.setAttribute('markerHeight', '7');
  marker.setAttribute('orient', 'auto-start-reverse');
  marker.append(s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
  defs.append(marker);
  svg.append(defs);

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
