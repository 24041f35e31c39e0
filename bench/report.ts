/**
 * Collects the benchmark figures, prints each as it is measured (figure, ratio and target side
 * by side) and renders BENCHMARKS.md.
 */

/** One line of the results table. */
export interface Row {
  benchmark: string;
  figure: string;
  measured: string;
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  met?: boolean;
}

/** The machine the run was made on. */
export interface Machine {
  date: string;
  nproc: number;
  memory: string;
  node: string;
  temporal: string;
  os: string;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];

  /** Records and prints a figure. */
  add(row: Row): void {
    this.rows.push(row);
    const target = row.target ? `   target ${row.target} ${verdict(row.met)}` : '';
    process.stdout.write(`  ${row.benchmark} | ${row.figure}: ${row.measured}${target}\n`);
  }

  /** A sentence for the notes under the table (scaled sizes, what is counted, failures). */
  note(text: string): void {
    this.notes.push(text);
    process.stdout.write(`  note: ${text}\n`);
  }

  /** BENCHMARKS.md. */
  markdown(machine: Machine, totalMs: number): string {
    const lines = [
      '# Benchmarks',
      '',
      'Measured by `npm run bench` (bench/run.ts; not part of `npm test`) in one run against one',
      'Temporal CLI dev server (SQLite file, started by the run) and the scripted LLM fake',
      '(test/fake-llm), with one Cairn worker per benchmark. Targets are reported, not tuned to.',
      '',
      `- Date: ${machine.date}`,
      `- Machine: ${machine.nproc} CPUs (nproc), ${machine.memory} memory, ${machine.os}`,
      `- Node: ${machine.node}`,
      `- Temporal: ${machine.temporal}`,
      `- Whole run: ${(totalMs / 1000).toFixed(0)} s`,
      '',
      '| Benchmark | Figure | Measured | Target | Met |',
      '| --- | --- | --- | --- | --- |',
      ...this.rows.map(
        (r) =>
          `| ${r.benchmark} | ${r.figure} | ${r.measured} | ${r.target ?? ''} | ${r.target ? verdict(r.met) : ''} |`,
      ),
      '',
      '## Notes',
      '',
      ...this.notes.map((n) => `- ${n}`),
      '',
    ];
    return lines.join('\n');
  }
}

function verdict(met: boolean | undefined): string {
  if (met === undefined) return '';
  return met ? 'yes' : 'NO';
}
