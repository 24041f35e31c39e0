/**
 * Limits on files uploaded with an agent's start (docs/contracts.md#uploads): bytes per file and
 * per request, files per request and the types accepted, from CAIRN_UPLOAD_MAX_FILE_BYTES,
 * CAIRN_UPLOAD_MAX_REQUEST_BYTES, CAIRN_UPLOAD_MAX_FILES and CAIRN_UPLOAD_TYPES, checked like
 * the rest of the configuration.
 */
import { z } from 'zod';

/** What one upload request may carry. */
export interface UploadLimits {
  /** Bytes one uploaded file may hold. */
  maxFileBytes: number;
  /** Bytes the whole request may hold (the JSON input and every file, as sent). */
  maxRequestBytes: number;
  /** Files one request may carry. */
  maxFiles: number;
  /**
   * The file name extensions accepted (lower case, no dot), or `*` for any. The declared
   * Content-Type of a part is the sender's word and is not what decides.
   */
  types: readonly string[];
}

const MIB = 1024 * 1024;

/** The documents and images `read_file` understands, and plain text. */
export const DEFAULT_UPLOAD_TYPES: readonly string[] = [
  'pdf',
  'docx',
  'xlsx',
  'csv',
  'txt',
  'md',
  'json',
  'html',
  'htm',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
];

/** The defaults (DESIGN: 25 MiB per file, 100 MiB per request, 20 files). */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 25 * MIB,
  maxRequestBytes: 100 * MIB,
  maxFiles: 20,
  types: DEFAULT_UPLOAD_TYPES,
};

const bytes = z.coerce
  .number({ error: 'expected a number of bytes' })
  .int('expected a whole number')
  .positive('expected a number above 0')
  // The page and the server hold one request in memory while they check it: a bound keeps it sane.
  .max(4 * 1024 * MIB, 'expected at most 4 GiB');

const EXTENSION = /^[a-z0-9]{1,16}$/;

/** `pdf, .DOCX, csv` → `['pdf', 'docx', 'csv']`; `*` alone accepts any type. */
const typeList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((t) => t.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z.string().refine((t) => t === '*' || EXTENSION.test(t), {
          error: 'expected file name extensions such as pdf,docx,csv (or * for any)',
        }),
      )
      .min(1, 'expected at least one extension'),
  );

/** The variables, merged into config.ts's schema. */
export const uploadEnvShape = {
  /** Bytes one uploaded file may hold (25 MiB). */
  CAIRN_UPLOAD_MAX_FILE_BYTES: bytes.optional(),
  /** Bytes one upload request may hold, checked from Content-Length before reading (100 MiB). */
  CAIRN_UPLOAD_MAX_REQUEST_BYTES: bytes.optional(),
  /** Files one request may carry (20). */
  CAIRN_UPLOAD_MAX_FILES: z.coerce
    .number({ error: 'expected a number of files' })
    .int('expected a whole number')
    .positive('expected a number above 0')
    // The agent input names at most 50 files.
    .max(50, 'expected at most 50 (an agent input names at most 50 files)')
    .optional(),
  /** Accepted file name extensions, comma-separated, or `*`. */
  CAIRN_UPLOAD_TYPES: typeList.optional(),
};

type UploadEnv = { [K in keyof typeof uploadEnvShape]?: z.output<(typeof uploadEnvShape)[K]> };

/** The limits, the defaults filling what is not set; a file may not be allowed more than the request. */
export function uploadLimits(e: UploadEnv): UploadLimits | { problem: string } {
  const limits: UploadLimits = {
    maxFileBytes: e.CAIRN_UPLOAD_MAX_FILE_BYTES ?? DEFAULT_UPLOAD_LIMITS.maxFileBytes,
    maxRequestBytes: e.CAIRN_UPLOAD_MAX_REQUEST_BYTES ?? DEFAULT_UPLOAD_LIMITS.maxRequestBytes,
    maxFiles: e.CAIRN_UPLOAD_MAX_FILES ?? DEFAULT_UPLOAD_LIMITS.maxFiles,
    types: e.CAIRN_UPLOAD_TYPES ?? DEFAULT_UPLOAD_LIMITS.types,
  };
  if (limits.maxFileBytes <= limits.maxRequestBytes) return limits;
  return {
    problem: `CAIRN_UPLOAD_MAX_FILE_BYTES: expected at most CAIRN_UPLOAD_MAX_REQUEST_BYTES (${limits.maxRequestBytes}), got ${limits.maxFileBytes}`,
  };
}
