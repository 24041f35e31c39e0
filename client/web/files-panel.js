/**
 * The agent page's Files panel: what the agent was given (`input`) and what it wrote (`output`),
 * from `GET /api/agents/:id/files`, each with its size and a download button. Downloads go
 * through fetch with the page's token (api.js `download`), so they work with bearer tokens too.
 */
import { api, download } from './api.js';
import { button, h } from './dom.js';
import { sizeText } from './start-files.js';

/**
 * A panel for the agent at `path` (`/api/agents/<id>`); `refresh()` reloads it.
 * @param {string} path
 */
export function filesPanel(path) {
  const body = h('div', { class: 'files', id: 'files' }, [h('p', { class: 'muted', text: 'Loading…' })]);
  const error = h('p', { class: 'error', role: 'alert' });
  const row = (/** @type {{ path: string, size: number, kind: string }} */ file) => {
    // Each segment encoded: a path's `/` stays a separator, anything else cannot change the route.
    const url = `${path}/files/${file.path.split('/').map(encodeURIComponent).join('/')}`;
    const name = file.path.split('/').pop() ?? file.path;
    return h('tr', { 'data-path': file.path, 'data-kind': file.kind }, [
      h('td', {}, [h('code', { text: file.path })]),
      h('td', { class: 'num', text: sizeText(file.size) }),
      h('td', { text: file.kind }),
      h('td', {}, [
        button(
          'Download',
          () => {
            error.textContent = '';
            download(url, name).catch((err) => (error.textContent = `${file.path}: ${err.message}`));
          },
          'link file-download',
        ),
      ]),
    ]);
  };
  const refresh = () =>
    api(`${path}/files`)
      .then(({ files, workspace }) => {
        const all = Array.isArray(files) ? files : [];
        const none =
          workspace === 'shared'
            ? 'This agent began before agents had folders of their own: its files are in the shared workspace.'
            : workspace === 'none'
              ? 'This server serves no agent files (it has no workspace folder).'
              : 'No files yet.';
        if (all.length === 0) return body.replaceChildren(h('p', { class: 'muted', text: none }));
        // What it wrote first: that is what people come for.
        const sorted = [...all.filter((f) => f.kind === 'output'), ...all.filter((f) => f.kind !== 'output')];
        body.replaceChildren(
          h('table', { class: 'file-table' }, [
            h('thead', {}, [
              h('tr', {}, [h('th', { text: 'File' }), h('th', { text: 'Size' }), h('th', { text: 'Kind' }), h('th')]),
            ]),
            h('tbody', {}, sorted.map(row)),
          ]),
        );
      })
      .catch((err) => body.replaceChildren(h('p', { class: 'error', text: err.message })));
  return { el: h('section', { class: 'card' }, [h('h2', { text: 'Files' }), body, error]), refresh };
}
