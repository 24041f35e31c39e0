/**
 * Collects the benchmark figures, prints each as it is measured (figure, ratio and target side
 * by side) and renders BENCHMARKS.md. A row with a target always carries its verdict, computed
 * from the figures; a benchmark that crashed is an error row and makes the run exit non-zero.
 */

/** One line of the results table: a target comes with whether it was met, or not at all. */
export type Row = {
  benchmark: string;
  figure: string;
  measured: string;
} & ({ target: string; met: boolean } | { target?: undefined; met?: undefined });

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
  /** Tables beside the figures (the latency budget), printed and rendered under the results. */
  readonly tables: { title: string; header: string[]; rows: string[][] }[] = [];
  /** Benchmarks that crashed or measured nothing, one line each. */
  readonly errors: string[] = [];

  /** Records and prints a figure. */
  add(row: Row): void {
    this.rows.push(row);
    const target = row.target ? `   target ${row.target} ${verdict(row.met)}` : '';
    process.stdout.write(`  ${row.benchmark} | ${row.figure}: ${row.measured}${target}\n`);
  }

  /** Records a benchmark that crashed or whose run measured nothing, as an `error` row. */
  error(benchmark: string, message: string): void {
    this.errors.push(`${benchmark}: ${message}`);
    this.add({ benchmark, figure: 'error', measured: message.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 200) });
  }

  /** Targets measured and not met, as `benchmark | figure`. */
  unmet(): string[] {
    return this.rows.filter((r) => r.met === false).map((r) => `${r.benchmark} | ${r.figure}`);
  }

  /** 1 when a benchmark crashed or measured nothing, else 0; a target not met is reported, not fatal. */
  exitCode(): 0 | 1 {
    return this.errors.length > 0 ? 1 : 0;
  }

  /** Records and prints a table. */
  table(title: string, header: string[], rows: string[][]): void {
    this.tables.push({ title, header, rows });
    process.stdout.write(`  ${title}\n`);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    for (const r of [header, ...rows]) {
      process.stdout.write(
        `    ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}\n`,
      );
    }
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
      '(test/fake-llm), with one Cairn worker per benchmark, bundled as production bundles it (with',
      'the tracing and metrics interceptor modules). Beside every Cairn figure stands the lean',
      'Temporal baseline (bench/lean: one workflow per agent, every model and tool call an activity',
      'on its own task queue, no children, signals or queries) run in the same process against the',
      'same server and fake, side by side in the same run: on a shared machine absolute figures are',
      'noisy, ratios measured together are what to compare. Targets are reported, not tuned to.',
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
      ...this.tables.flatMap((t) => [
        `## ${t.title}`,
        '',
        `| ${t.header.join(' | ')} |`,
        `| ${t.header.map(() => '---').join(' | ')} |`,
        ...t.rows.map((r) => `| ${r.join(' | ')} |`),
        '',
      ]),
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
