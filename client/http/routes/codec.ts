/**
 * The codec server (docs/operations.md#codec-server): `POST /codec/encode` and
 * `POST /codec/decode` as Temporal's remote codec protocol defines them — a JSON body
 * `{ payloads: [{ metadata: { key: base64 }, data: base64 }] }` in, the same shape out, the
 * namespace in `X-Namespace` — so that the Temporal UI and `temporal … --codec-endpoint` show
 * what Cairn's payload codecs compressed and encrypted. Both need the operator role (route-roles.ts);
 * every decode and encode is audited with who asked, for which namespace and workflow, and which
 * keys it used: an encode makes a message the workers take as a keyholder's, so it is as telling.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { Context } from 'hono';
import { z } from 'zod';
import { payloadCodecs } from '../../../temporal/payloads/data-converter';
import { KEY_ID_METADATA, KEY_ID_REFUSED } from '../../../temporal/payloads/encryption-codec';
import { PayloadCodecError } from '../../../temporal/payloads/payload-codec-error';
import { isKeyId, type PayloadSettings } from '../../../config/payload-config';
import { metadataText } from '../../../temporal/payloads/payload-envelope';
import { issueLines } from '../../../workflows/base/issue-lines';
import { sendError } from '../errors';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64');

const payloadsSchema = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() })),
});
type JsonPayloads = z.infer<typeof payloadsSchema>;

/** One decode or encode, as the audit log records it. */
export interface CodecAuditRecord {
  /** An encode writes payloads the workers accept as a keyholder's (an answer, a pause): audited as a decode is. */
  audit: 'codec.decode' | 'codec.encode';
  at: string;
  /** The principal's id (`anonymous` with authentication off) and how it came. */
  principal: string;
  method: string;
  /** What authenticated the request: `token`, `shared-token`, `oidc-session`, `oidc-bearer` or `none`. */
  authenticatedBy: string;
  namespace: string;
  /** From `X-Workflow-Id` when the caller names it (`--codec-header X-Workflow-Id=…`), else `unknown`. */
  workflowId: string;
  payloads: number;
  /** The encryption keys the decoded payloads named; for an encode, the key it sealed them under. */
  keyIds: string[];
  outcome: 'decoded' | 'encoded' | 'refused';
  error?: string;
}

export interface CodecRouteOptions {
  payloads: PayloadSettings;
  /** Where audit records go: one JSON line on the server's (redacting) log. */
  audit: (record: CodecAuditRecord) => void;
}

function toPayloads(body: JsonPayloads): Payload[] {
  return body.payloads.map((p) => {
    const metadata: Record<string, Uint8Array> = {};
    for (const [key, value] of Object.entries(p.metadata ?? {})) {
      metadata[key] = new Uint8Array(Buffer.from(value, 'base64'));
    }
    return { metadata, data: new Uint8Array(Buffer.from(p.data ?? '', 'base64')) };
  });
}

function toJson(payloads: Payload[]): JsonPayloads {
  return {
    payloads: payloads.map((p) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata ?? {}).flatMap(([k, v]) => (v ? [[k, Buffer.from(v).toString('base64')]] : [])),
      ),
      data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
    })),
  };
}

/** The longest header value an audit line repeats: Temporal's own ids are shorter. */
const MAX_AUDITED_HEADER_CHARS = 1000;

function auditedHeader(c: Context, name: string): string {
  return (c.req.header(name) ?? 'unknown').slice(0, MAX_AUDITED_HEADER_CHARS);
}

/** Whether the request says its body is JSON (a cross-site form can only send other types without a preflight). */
function saysJson(c: Context): boolean {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

async function readBody(c: Context): Promise<JsonPayloads | Response> {
  if (!saysJson(c)) {
    return sendError(c, 'UNSUPPORTED_MEDIA_TYPE', 'expected a JSON body with "Content-Type: application/json"');
  }
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return sendError(c, 'INVALID_INPUT', 'expected a JSON body { payloads: [...] }');
  }
  const parsed = payloadsSchema.safeParse(raw);
  if (!parsed.success) return sendError(c, 'INVALID_INPUT', issueLines(parsed.error, '(body)').join('; '));
  return parsed.data;
}

/** The audit line of a request, as it succeeds (the caller changes the outcome when it does not). */
function auditRecord(
  c: Context,
  audit: CodecAuditRecord['audit'],
  payloads: number,
  keyIds: string[],
): CodecAuditRecord {
  const principal = c.get('principal');
  return {
    audit,
    at: new Date().toISOString(),
    principal: principal.id,
    method: principal.method,
    authenticatedBy: principal.authenticatedBy,
    namespace: auditedHeader(c, 'x-namespace'),
    workflowId: auditedHeader(c, 'x-workflow-id'),
    payloads,
    keyIds,
    outcome: audit === 'codec.decode' ? 'decoded' : 'encoded',
  };
}

/** Registers the two codec routes. */
export function registerCodecRoutes(app: OpenAPIHono, options: CodecRouteOptions): void {
  const codecs: PayloadCodec[] = payloadCodecs(options.payloads);
  const { audit } = options;

  app.post('/codec/encode', async (c) => {
    const body = await readBody(c);
    if (body instanceof Response) return body;
    let payloads = toPayloads(body);
    const current = options.payloads.keys?.[0]?.id;
    const record = auditRecord(c, 'codec.encode', payloads.length, current === undefined ? [] : [current]);
    try {
      for (const codec of codecs) payloads = await codec.encode(payloads);
    } catch (err) {
      audit({ ...record, outcome: 'refused', error: 'the payloads could not be encoded' });
      throw err;
    }
    audit(record);
    return c.json(toJson(payloads), 200);
  });

  app.post('/codec/decode', async (c) => {
    const body = await readBody(c);
    if (body instanceof Response) return body;
    let payloads = toPayloads(body);
    const named = [...new Set(payloads.flatMap((p) => metadataText(p, KEY_ID_METADATA) ?? []))];
    // Only ids of the key-id grammar reach the audit line (a crafted one may be 60,000 characters).
    const keyIds = named.filter(isKeyId);
    const record = auditRecord(c, 'codec.decode', payloads.length, keyIds);
    if (keyIds.length < named.length) {
      audit({ ...record, outcome: 'refused', error: KEY_ID_REFUSED });
      return sendError(c, 'INVALID_INPUT', KEY_ID_REFUSED, `metadata.${KEY_ID_METADATA}`);
    }
    try {
      for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
    } catch (err) {
      if (!(err instanceof PayloadCodecError)) throw err;
      audit({ ...record, outcome: 'refused', error: err.message });
      return sendError(c, err.code, err.message);
    }
    audit(record);
    return c.json(toJson(payloads), 200);
  });
}
