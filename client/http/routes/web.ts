/**
 * The web page: one HTML shell for `/`, `/agents/:id`, `/threads` and `/threads/:id`
 * (routing happens in the browser), its ES modules and stylesheet from client/web/, the
 * workflows' own rules as one browser module (`/web/rules.js`, bundled in memory from
 * client/web/rules.ts on first request) and the browser builds of dagre, marked and DOMPurify
 * from node_modules. No build step and no wildcard file serving: every file is an explicit
 * route. The page itself needs no token; it sends one to `/api` when the user pasted one into its
 * token box (never from the address: a `?token=` link's token is dropped unused).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Context, Env, Hono } from 'hono';
import { browserModule } from '../browser-module';

export interface WebOptions {
  /** Base of the Temporal Web UI, for links to agents and steps. */
  temporalUiUrl?: string;
}

/** The embedded dev server's UI (scripts/embedded-server.ts). */
export const DEFAULT_TEMPORAL_UI_URL = 'http://127.0.0.1:8233';

const WEB_DIR = join(__dirname, '..', '..', 'web');

/** The page's own files, by URL name. */
const PAGE_FILES: Record<string, string> = {
  'app.js': 'text/javascript',
  'api.js': 'text/javascript',
  'dom.js': 'text/javascript',
  'agent-view.js': 'text/javascript',
  'live-format.js': 'text/javascript',
  'forms.js': 'text/javascript',
  'kind-controls.js': 'text/javascript',
  'form-control.js': 'text/javascript',
  'graph.js': 'text/javascript',
  'markdown.js': 'text/javascript',
  'who.js': 'text/javascript',
  'audit-panel.js': 'text/javascript',
  'confirm.js': 'text/javascript',
  'live-stream.js': 'text/javascript',
  'sse-follow.js': 'text/javascript',
  'timeline-events.js': 'text/javascript',
  'approval-preview.js': 'text/javascript',
  'live-view.js': 'text/javascript',
  'transcript-panel.js': 'text/javascript',
  'start-options.js': 'text/javascript',
  'definition-pick.js': 'text/javascript',
  'start-files.js': 'text/javascript',
  'files-panel.js': 'text/javascript',
  'thread-list.js': 'text/javascript',
  'threads-view.js': 'text/javascript',
  'thread-turn.js': 'text/javascript',
  'thread-older.js': 'text/javascript',
  'style.css': 'text/css',
};

/** Browser modules bundled from TypeScript beside the page's files: URL name → source. */
const BUNDLED_FILES: Record<string, string> = {
  'rules.js': 'rules.ts',
};

/** The libraries' self-contained ES module builds: URL name → [package, file beside its entry]. */
const VENDOR_FILES: Record<string, [string, string]> = {
  'dagre.js': ['@dagrejs/dagre', 'dagre.esm.js'],
  'marked.js': ['marked', 'marked.esm.js'],
  'dompurify.js': ['dompurify', 'purify.es.mjs'],
};

/**
 * Who may load what: only this origin, no inline script, no plugins, no framing, and no form
 * submission at all — the page's own forms are handled in script and never navigate, so a form
 * that slips into rendered model output cannot post anywhere either.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Registers the page routes; call after the `/api` routes so those keep priority. */
export function registerWebRoutes<E extends Env>(app: Hono<E>, options: WebOptions = {}): void {
  const uiUrl = (options.temporalUiUrl ?? DEFAULT_TEMPORAL_UI_URL).replace(/\/+$/, '');
  const page = async (c: Context<E>) => {
    const html = await readFile(join(WEB_DIR, 'index.html'), 'utf8');
    c.header('Content-Security-Policy', CSP);
    c.header('Cache-Control', 'no-cache');
    return c.html(html.replace('{{TEMPORAL_UI_URL}}', escapeAttribute(uiUrl)));
  };
  app.get('/', page);
  app.get('/agents/:id', page);
  app.get('/threads', page);
  app.get('/threads/:id', page);

  for (const [name, type] of Object.entries(PAGE_FILES)) {
    app.get(`/web/${name}`, async (c) => sendFile(c, join(WEB_DIR, name), type, 'no-cache'));
  }
  for (const [name, source] of Object.entries(BUNDLED_FILES)) {
    app.get(`/web/${name}`, (c) =>
      c.body(browserModule(join(WEB_DIR, source)), 200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
      }),
    );
  }
  for (const [name, [pkg, file]] of Object.entries(VENDOR_FILES)) {
    const path = join(dirname(require.resolve(pkg)), file);
    app.get(`/vendor/${name}`, async (c) => sendFile(c, path, 'text/javascript', 'public, max-age=3600'));
  }
}

async function sendFile<E extends Env>(c: Context<E>, path: string, type: string, cache: string): Promise<Response> {
  const body = await readFile(path, 'utf8');
  return c.body(body, 200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': cache });
}
