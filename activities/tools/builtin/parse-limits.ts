/** What a document parse is and the bounds it runs under, shared by the reader (document-text.ts) and the child that parses (parser-child.ts). */

/** The kinds of file read through a parser; everything else is read as UTF-8 text. */
export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'html';

/** Bounds of one parse. */
export interface ParseLimits {
  /** Heap of the parsing process (V8 old generation), in MiB. */
  heapMb: number;
  /**
   * Memory the parsing process may take once its parser is loaded, heap and everything else, in
   * MiB: its cgroup's limit, or what is added to its address space under RLIMIT_AS.
   */
  memoryMb: number;
  /** Most an archive (DOCX, XLSX) may declare it inflates to, in MiB; checked before parsing. */
  inflatedMb: number;
  /** Longest a parse may take before its process is killed, in milliseconds. */
  timeoutMs: number;
}
