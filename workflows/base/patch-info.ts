/**
 * The shape of one replay gate in the patch registry (patches.ts): its marker id, the newest
 * release whose histories take its old path, where it is in its lifecycle, and what the new and
 * old paths do.
 */

/** Where a patch is in its lifecycle. */
export type PatchStage = 'patched' | 'deprecated' | 'retired';

/** One replay gate. */
export interface PatchInfo {
  /** The marker id in history. */
  id: string;
  /**
   * The newest release (a package.json version set by a release commit, never a `-dev` one)
   * whose histories and running agents take the old path: the gate is kept for them. A path no
   * release shipped needs no gate (CONTRIBUTING.md, "Gates and releases").
   */
  since: string;
  stage: PatchStage;
  /** What the new path does. */
  feature: string;
  /** What the old path did, which histories of `since` and earlier releases replay. */
  why: string;
  /**
   * Where the new path is replayed when no kept history can hold it: a test file that records
   * and replays such runs itself (e.g. paths taken only on a worker with encryption keys, whose
   * histories the kept, keyless corpus cannot decode).
   */
  replayedBy?: string;
}
