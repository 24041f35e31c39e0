/** The cluster suite's second table: each scenario's fault, when it struck, how long the part was down and what it cost. */
import type { FaultFigures } from './under-fault';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One row per fault: scenario, fault, writes on disk when it struck, down time, longest agent stall, wall. */
export function faultTable(rows: (FaultFigures & { wallMs: number })[]): string {
  const header = ['scenario', 'fault', 'struck at writes', 'down', 'longest agent stall', 'wall'];
  const cells = [
    header,
    ...rows.map((r) => [
      r.scenario,
      r.fault,
      r.at,
      r.downMs > 0 ? seconds(r.downMs) : '-',
      r.stallMs === undefined ? '-' : seconds(r.stallMs),
      seconds(r.wallMs),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
