/**
 * The page's control for each interaction kind (docs/contracts.md#interactions-and-answers): a
 * text box (ask.query), options (ask.select), a typed form (ask.form, form-control.js), the plan
 * check (a graph agent's: its graph, confirm or cancel only — the decisions it lists), a tool approval bound to its digest, a step failure, a deadline and a budget. Every kind
 * the agent knows has one here: a unit test compares these with the kinds' modules
 * (workflows/model/interactions/kinds/) and with the CLI's prompts.
 */
import { button, h } from './dom.js';
import { formControl } from './form-control.js';
import { confirmingButton } from './confirm.js';
import { approvalArguments, approvalChange } from './approval-preview.js';
import { conditionText, graphBounds, nodeMarks } from './rules.js';

/** @typedef {{ id: string, kind: string, prompt: string, stepId?: string, [key: string]: any }} Interaction */

/**
 * The control of each interaction kind, by kind: what it shows and the answers it can send.
 * @type {Record<string, (i: Interaction, submit: (answer: unknown) => void) => (HTMLElement | null)[]>}
 */
export const KIND_CONTROLS = {
  'ask.query': (_i, submit) => {
    const text = h('textarea', { name: 'text', rows: 3, 'aria-label': 'answer' });
    return [text, button('Send', () => submit({ text: /** @type {HTMLTextAreaElement} */ (text).value }), 'primary')];
  },
  'ask.select': (i, submit) => {
    const type = i.multiple ? 'checkbox' : 'radio';
    const name = `select-${i.id}`;
    const options = i.options.map((/** @type {string} */ o) =>
      h('label', { class: 'option' }, [h('input', { type, name, value: o }), ` ${o}`]),
    );
    const chosen = () =>
      options
        .map((l) => /** @type {HTMLInputElement} */ (l.firstChild))
        .filter((c) => c.checked)
        .map((c) => c.value);
    return [h('div', { class: 'options' }, options), button('Send', () => submit({ values: chosen() }), 'primary')];
  },
  'ask.form': (i, submit) => formControl(i.fields, submit),
  'plan.check': (i, submit) => (i.graph ? graphCheck(i, submit) : planCheck(i, submit)),
  'tool.approval': (i, submit) => {
    const reason = /** @type {HTMLInputElement} */ (
      h('input', { type: 'text', placeholder: 'reason (for a rejection)', 'aria-label': 'reason' })
    );
    const decide = (/** @type {string} */ decision) => () =>
      submit({
        decision,
        digest: i.digest,
        ...(decision === 'reject' && reason.value ? { reason: reason.value } : {}),
      });
    return [
      h('p', {}, [h('strong', { text: 'Tool: ' }), h('code', { class: 'tool-name', text: i.tool })]),
      i.why ? h('p', { class: 'muted approval-why', text: `Why: ${i.why}` }) : null,
      approvalChange(i.preview),
      approvalArguments(i.arguments),
      reason,
      h('div', { class: 'actions' }, [
        button('Approve', decide('approve'), 'primary'),
        button('Reject', decide('reject'), 'danger'),
      ]),
    ].filter((el) => el !== null);
  },
  'step.failure': (i, submit) => [
    h('pre', { class: 'code', text: i.error }),
    h('div', { class: 'actions' }, [
      button('Retry', () => submit({ decision: 'retry' }), 'primary'),
      button('Skip', () => submit({ decision: 'skip' })),
      button('Abort', () => submit({ decision: 'abort' }), 'danger'),
    ]),
  ],
  deadline: (_i, submit) => {
    const minutes = /** @type {HTMLInputElement} */ (
      h('input', { type: 'number', min: 1, value: '30', 'aria-label': 'minutes more' })
    );
    return [
      h('p', { text: 'The deadline was reached. Extend it by some minutes, or stop the agent.' }),
      minutes,
      h('div', { class: 'actions' }, [
        button('Extend', () => submit({ decision: 'extend', deadlineMs: Number(minutes.value) * 60_000 }), 'primary'),
        button('Stop', () => submit({ decision: 'stop' }), 'danger'),
      ]),
    ];
  },
  budget: (i, submit) => {
    // A cost budget alone is raised in dollars; otherwise the token budget is.
    const dollars = i.tokenBudget === undefined && i.costBudgetUsd !== undefined;
    const raise = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'number',
        min: dollars ? (i.costUsd ?? 0) : i.usedTokens + 1,
        step: dollars ? 'any' : '1',
        'aria-label': 'new budget',
      })
    );
    // Twice what was used when that is over the budget already, so the offered raise is accepted.
    raise.value = String(
      dollars ? Math.max(i.costBudgetUsd, i.costUsd ?? 0) * 2 : Math.max(i.tokenBudget, i.usedTokens) * 2,
    );
    const cost = typeof i.costUsd === 'number' ? `$${i.costUsd.toFixed(4)}` : 'unknown';
    const key = dollars ? 'costBudgetUsd' : 'tokenBudget';
    return [
      h('p', {
        text: dollars
          ? `Spent ${cost} of $${i.costBudgetUsd} (${i.usedTokens} tokens).`
          : `Used ${i.usedTokens} of ${i.tokenBudget} tokens (cost ${cost}).`,
      }),
      raise,
      h('div', { class: 'actions' }, [
        button('Raise budget', () => submit({ decision: 'raise', [key]: Number(raise.value) }), 'primary'),
        button('Stop', () => submit({ decision: 'stop' }), 'danger'),
      ]),
    ];
  },
};

/**
 * A plan's check: its steps; confirm; revise with feedback; edit as JSON; cancel — each only
 * when the check's `decisions` (if it lists them) include it.
 * @param {Interaction} i
 * @param {(answer: unknown) => void} submit
 */
function planCheck(i, submit) {
  const allows = (/** @type {string} */ d) => !i.decisions || i.decisions.includes(d);
  const feedback = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: 2, 'aria-label': 'feedback' }));
  const json = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { rows: 10, class: 'code', 'aria-label': 'plan JSON' })
  );
  json.value = JSON.stringify(i.plan, null, 2);
  const jsonError = h('p', { class: 'error' });
  const edit = () => {
    jsonError.textContent = '';
    try {
      submit({ decision: 'edit', plan: JSON.parse(json.value) });
    } catch (err) {
      jsonError.textContent = `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  const steps = (i.plan?.steps ?? []).map((/** @type {any} */ s) =>
    h('li', {
      text: `${s.id}: ${s.title}${s.depends_on.length ? ` (after ${s.depends_on.join(', ')})` : ''}${s.reused ? ` — reused from ${s.reused.agentId}` : ''}`,
    }),
  );
  // A replanned remainder's check says what the replan changed since the last confirmed plan.
  const changed = i.changes
    ? /** @type {const} */ (['added', 'removed', 'changed'])
        .filter((key) => i.changes[key].length > 0)
        .map((key) => `${key} ${i.changes[key].join(', ')}`)
    : [];
  return [
    i.changes
      ? h('p', { class: 'plan-changes', text: `Since the last check: ${changed.join('; ') || 'no change'}` })
      : null,
    h('ol', { class: 'plan-steps' }, steps),
    allows('confirm')
      ? h('div', { class: 'actions' }, [button('Confirm plan', () => submit({ decision: 'confirm' }), 'primary')])
      : null,
    allows('revise')
      ? h('details', {}, [
          h('summary', { text: 'Ask for changes' }),
          feedback,
          button('Revise', () => submit({ decision: 'revise', feedback: feedback.value })),
        ])
      : null,
    allows('edit')
      ? h('details', {}, [h('summary', { text: 'Edit as JSON' }), json, jsonError, button('Save edited plan', edit)])
      : null,
    allows('cancel')
      ? cancelCheck('Cancel this agent instead of running the plan?', 'Keep the plan check', submit)
      : null,
  ];
}

/**
 * A graph agent's check: the graph in words (its drawing is in the agent's graph card) — bounds,
 * each node with its marks and its edges out with their conditions — and only the decisions the
 * check lists (`confirm`, `cancel`): a graph is not revised or edited here.
 * @param {Interaction} i
 * @param {(answer: unknown) => void} submit
 */
function graphCheck(i, submit) {
  const graph = i.graph;
  const allows = (/** @type {string} */ d) => (i.decisions ?? ['confirm', 'cancel']).includes(d);
  const nodes = graph.nodes.map((/** @type {any} */ node) => {
    const marks = nodeMarks(graph, node);
    const out = graph.edges.filter((/** @type {any} */ e) => e.from === node.id);
    return h('li', { 'data-node-id': node.id }, [
      h('strong', { text: node.title ?? node.id }),
      ` ${node.id}${marks.length ? ` (${marks.join(', ')})` : ''}`,
      out.length
        ? h(
            'ul',
            {},
            out.map((/** @type {any} */ e) =>
              h('li', { class: 'graph-edge', text: `→ ${e.to}${e.when ? ` if ${conditionText(e)}` : ''}` }),
            ),
          )
        : null,
    ]);
  });
  return [
    h('p', { class: 'graph-summary' }, [
      h('strong', { text: `Graph ${graph.name}` }),
      `: entry ${graph.entry.join(', ')} · end ${graph.end.join(', ')} · ${graphBounds(graph)}`,
    ]),
    graph.description ? h('p', { class: 'muted', text: graph.description }) : null,
    h('ul', { class: 'graph-nodes' }, nodes),
    allows('confirm')
      ? h('div', { class: 'actions' }, [button('Confirm graph', () => submit({ decision: 'confirm' }), 'primary')])
      : null,
    allows('cancel') ? cancelCheck('Cancel this agent instead of running the graph?', 'Keep the check', submit) : null,
  ];
}

/**
 * Cancel at a check: apart from its other buttons, and only after a second click — it ends the agent.
 * @param {string} question
 * @param {string} no
 * @param {(answer: unknown) => void} submit
 */
function cancelCheck(question, no, submit) {
  return h('div', { class: 'actions cancel-plan' }, [
    confirmingButton({
      label: 'Cancel agent…',
      question,
      yes: 'Yes, cancel the agent',
      no,
      onConfirm: () => submit({ decision: 'cancel' }),
    }),
  ]);
}
