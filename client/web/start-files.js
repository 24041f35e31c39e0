/**
 * The start form's files: a drop zone (and a file field for those who pick) collecting the files
 * an agent is given at its start — or a conversation's message (threads-view.js). With files the
 * start (message) is sent as a multipart form — the agent input (message) as the `input` part,
 * each file as a `file` part — and the server stores each as `inputs/<name>` in the agent's
 * (thread's) folder (docs/contracts.md#uploads).
 */
import { button, h } from './dom.js';

/**
 * A size for people: `512 B`, `2.4 KB`, `3.1 MB`.
 * @param {number} bytes
 */
export function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The drop zone and what it holds. `prefix` names its elements' ids: `start` for the start form,
 * another for another form on the page (the conversation's send box: `send`).
 * @param {string} [prefix]
 * @returns {{ element: HTMLElement, files: () => File[], clear: () => void, add: (files: File[]) => void }}
 */
export function startFiles(prefix = 'start') {
  /** @type {File[]} */
  let chosen = [];
  const list = h('ul', { class: 'start-file-list', id: `${prefix}-files` });
  const inputId = `${prefix}-file-input`;
  const picker = /** @type {HTMLInputElement} */ (
    h('input', { type: 'file', id: inputId, multiple: true, class: 'visually-hidden' })
  );
  const show = () =>
    list.replaceChildren(
      ...chosen.map((file, i) =>
        h('li', { 'data-name': file.name }, [
          h('span', { text: file.name }),
          h('span', { class: 'muted', text: ` ${sizeText(file.size)} ` }),
          button(
            'remove',
            () => {
              chosen = chosen.filter((_, at) => at !== i);
              show();
            },
            'link',
          ),
        ]),
      ),
    );
  const add = (/** @type {FileList | File[] | null | undefined} */ files) => {
    if (!files) return;
    chosen = [...chosen, ...files];
    show();
  };
  picker.addEventListener('change', () => {
    add(picker.files);
    picker.value = '';
  });
  const zoneId = prefix === 'start' ? 'drop-zone' : `${prefix}-drop-zone`;
  const zone = h('div', { class: 'drop-zone', id: zoneId, tabindex: 0, role: 'button' }, [
    h('span', { text: 'Drop files here, or ' }),
    h('label', { for: inputId, class: 'link', text: 'choose files' }),
    picker,
  ]);
  zone.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      picker.click();
    }
  });
  zone.addEventListener('dragover', (e) => {
    // Without this the browser opens a dropped file instead of handing it to the page.
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    add(e.dataTransfer?.files);
  });
  const element = h('div', { class: 'start-files' }, [h('span', { class: 'label', text: 'Files' }), zone, list]);
  return {
    element,
    files: () => [...chosen],
    clear: () => {
      chosen = [];
      show();
    },
    add,
  };
}

/**
 * The start as a multipart form: `body` as the `input` part, each file as a `file` part.
 * @param {Record<string, unknown>} body
 * @param {File[]} files
 */
export function startForm(body, files) {
  const form = new FormData();
  form.append('input', new Blob([JSON.stringify(body)], { type: 'application/json' }));
  for (const file of files) form.append('file', file, file.name);
  return form;
}
