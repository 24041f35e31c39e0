/**
 * The retirement manifest, `test/fixtures/retired.json`: the only way a kept fixture may leave
 * the repository, and the record of development recordings superseded when a gate no release
 * needed was retired. A kept history guards the old path of one or more patches; once those
 * patches are older than the support window (docs/operations.md#the-support-window), the release
 * step moves them to `deprecatePatch`, then deletes them, and retires the histories that took
 * their old path by listing each here — the file's path, the SHA-256 of the content it was
 * recorded with, the patches whose retirement it follows and the version that retired it. The
 * fixture gate (scripts/check-fixtures.ts) accepts a deleted fixture only when an entry matches
 * it exactly, that content was recorded at that path, and every patch it names is marked retired
 * in the patch registry (workflows/base/patches.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Where the manifest lives, relative to the repository root. */
export const RETIRED_MANIFEST = 'test/fixtures/retired.json';

const retirementSchema = z.strictObject({
  /** The fixture's path relative to the repository root. */
  path: z.string().regex(/^test\/fixtures\/(histories|carry)\/\d+\.\d+\.\d+(-dev)?\/[^/]+$/, 'a recorded fixture file'),
  /** SHA-256 (hex) of the content the fixture was recorded with. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a hex SHA-256'),
  /** The patches whose old path the fixture guarded, each retired in workflows/base/patches.ts. */
  patches: z.array(z.string().min(1)).min(1, 'name the retired patches the fixture guarded'),
  /** The version that retired it (a development version while its release is being made). */
  retiredIn: z.string().regex(/^\d+\.\d+\.\d+(-dev)?$/, 'MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-dev'),
  reason: z.string().min(10, 'say why'),
});

const manifestSchema = z.strictObject({ retired: z.array(retirementSchema) });

/** One retired fixture. */
export type Retirement = z.infer<typeof retirementSchema>;

/** The retirements recorded in `repoDir`, or the reason the manifest cannot be read. */
export function readRetirements(repoDir: string): { retirements: Retirement[]; problem?: string } {
  const file = join(repoDir, RETIRED_MANIFEST);
  if (!existsSync(file)) return { retirements: [] };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { retirements: [], problem: `${RETIRED_MANIFEST}: not JSON (${(err as Error).message})` };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    return { retirements: [], problem: `${RETIRED_MANIFEST}: ${issues}` };
  }
  return { retirements: parsed.data.retired };
}
