/**
 * A unified diff of two texts, by lines, for people deciding an approval: `@@ -a,b +c,d @@` hunks
 * with three lines of context, `-` for lines removed and `+` for lines added. The common start and
 * end are set aside first (most edits touch one place); what is left between them is matched by
 * longest common subsequence when small enough, else shown as replaced whole — a correct diff,
 * if not the shortest. Pure.
 */

/** Lines of context around each change. */
const CONTEXT = 3;
/** The largest middle (lines before × lines after) matched line by line. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The unified diff turning `before` into `after` (`--- a/<path>`, `+++ b/<path>`, hunks); '' when equal. */
export function unifiedDiff(before: string, after: string, path: string): string {
  if (before === after) return '';
  const ops = diffLines(splitLines(before), splitLines(after));
  return [`--- a/${path}`, `+++ b/${path}`, ...hunks(ops)].join('\n');
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`. */
function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: string[]): Op[] => lines.map((line) => ({ kind: ' ', line }));
  return [...same(a.slice(0, start)), ...middle(a.slice(start, endA), b.slice(start, endB)), ...same(a.slice(endA))];
}

/** The edit script of the changed middle: by longest common subsequence, or replaced whole when too large. */
function middle(a: string[], b: string[]): Op[] {
  const removed = (lines: string[]): Op[] => lines.map((line) => ({ kind: '-', line }));
  const added = (lines: string[]): Op[] => lines.map((line) => ({ kind: '+', line }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_CELLS) return [...removed(a), ...added(b)];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], one row of b.length + 1 per line of a.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] ?? '' });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))
      ops.push({ kind: '-', line: a[i++] ?? '' });
    else ops.push({ kind: '+', line: b[j++] ?? '' });
  }
  return [...ops, ...removed(a.slice(i)), ...added(b.slice(j))];
}

/** The ops as unified hunks: each change with CONTEXT lines around it, near changes joined. */
function hunks(ops: Op[]): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const out: string[] = [];
  let n = 0;
  while (n < changed.length) {
    const first = changed[n] ?? 0;
    let last = first;
    while (n + 1 < changed.length && (changed[n + 1] ?? 0) - last <= 2 * CONTEXT) last = changed[++n] ?? last;
    n++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    // Line numbers (1-based) where the hunk starts in each text: count what came before it.
    const before = ops.slice(0, from);
    const startA = before.filter((op) => op.kind !== '+').length;
    const startB = before.filter((op) => op.kind !== '-').length;
    const body = ops.slice(from, to);
    const countA = body.filter((op) => op.kind !== '+').length;
    const countB = body.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${countA ? startA + 1 : startA},${countA} +${countB ? startB + 1 : startB},${countB} @@`);
    out.push(...body.map((op) => `${op.kind}${op.line}`));
  }
  return out;
}
