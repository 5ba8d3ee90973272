// Machines: the list, searchable and filterable, kept current by the server's change events (machines come and go live).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, relative, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

/** The list shows machines, their owners and what the policy lets them do. */
const listChanged = (digest) => digest.nodes.length > 0 || digest.users.length > 0 || digest.policy;

/** Advertised routes no one approved yet. */
export function waitingRoutes(node) {
  return node.routes.available.filter((route) => !node.routes.approved.includes(route));
}

const FILTERS = {
  all: () => true,
  online: (n) => n.online,
  offline: (n) => !n.online,
  approval: (n) => !n.authorized,
  routes: (n) => waitingRoutes(n).length > 0,
  expired: (n) => n.expired,
};

function matches(node, text) {
  if (!text) return true;
  const haystack = [node.name, node.hostname, node.user, node.ipv4, node.ipv6, ...node.tags]
    .filter(Boolean).join(' ').toLowerCase();
  return text.toLowerCase().split(/\s+/).every((word) => haystack.includes(word));
}

export function Status({ node }) {
  return html`${node.online ? html`<span class="badge online">online</span>`
    : html`<span class="offline">${node.lastSeen ? 'last seen ' + relative(node.lastSeen) : 'never connected'}</span>`}
    ${!node.authorized && html` <span class="badge waiting">needs approval</span>`}
    ${waitingRoutes(node).length > 0 && html` <span class="badge waiting">routes waiting</span>`}
    ${node.expired && html` <span class="badge bad">key expired</span>`}
    ${node.suspended && html` <span class="badge bad">suspended</span>`}`;
}

export function Owner({ node }) {
  return node.tags.length ? node.tags.map((tag) => html`<span class="badge">${tag}</span>`) : node.user;
}

/**
 * SSH sessions held by a check rule, waiting beside the machines that wait: approve or reject each (a rejection is
 * final). Shown only to a caller who may read them, and only while some wait.
 */
function SshChecks() {
  const [data, error, reload] = useLoad(() => get('auth/ssh-check'), [], (digest) => digest.areas.includes('ssh'));
  const action = useAction();
  if (error || !data || data.sshChecks.length === 0) return null;
  const decide = (what, check) => action.run(async () => {
    await api('POST', 'auth/' + what, { authId: check.authId });
    reload();
  });
  return html`<section aria-labelledby="ssh-checks-title"><h2 id="ssh-checks-title">SSH sessions waiting for a check</h2>
    <${Problem} error=${action.error} />
    <div class="table-wrap"><table class="responsive">
      <thead><tr><th scope="col">From</th><th scope="col">Owner</th><th scope="col">To</th><th scope="col">As</th>
        <th scope="col">Lapses</th><th scope="col">Decision</th></tr></thead>
      <tbody>${data.sshChecks.map((check) => html`<tr key=${check.authId} data-ssh-check=${check.authId}>
        <td data-label="From">${check.srcNode}</td>
        <td data-label="Owner">${check.srcOwner}</td>
        <td data-label="To">${check.dstNode}</td>
        <td data-label="As" class="mono">${check.localUser}</td>
        <td data-label="Lapses"><span title=${when(check.expiresAt)}>${relative(check.expiresAt)}</span></td>
        <td data-label="Decision"><button type="button" class="primary" disabled=${action.busy}
            onClick=${() => decide('approve', check)}>Approve</button>
          <button type="button" class="danger" disabled=${action.busy}
            onClick=${() => confirm('Refuse this SSH session? The refusal is final.') && decide('reject', check)}>Reject</button></td>
      </tr>`)}</tbody>
    </table></div></section>`;
}

export default function Machines() {
  const [text, setText] = useState('');
  const [filter, setFilter] = useState('all');
  const [data, error] = useLoad(() => get('node'), [], listChanged);
  const nodes = data ? data.nodes.filter(FILTERS[filter]).filter((n) => matches(n, text)) : [];
  return html`<h1>Machines</h1>
    <div class="row" role="search">
      <div><label for="machine-search">Search</label>
        <input id="machine-search" type="search" value=${text} placeholder="name, owner, tag, address"
          onInput=${(e) => setText(e.target.value)} /></div>
      <div><label for="machine-filter">Show</label>
        <select id="machine-filter" value=${filter} onChange=${(e) => setFilter(e.target.value)}>
          <option value="all">All machines</option>
          <option value="online">Online</option>
          <option value="offline">Offline</option>
          <option value="approval">Needs approval</option>
          <option value="routes">Routes waiting</option>
          <option value="expired">Key expired</option>
        </select></div>
      <p class="muted" aria-live="polite">${data ? nodes.length + ' of ' + data.nodes.length + ' machines' : ''}</p>
    </div>
    <${Problem} error=${error} />
    <${SshChecks} />
    ${data === undefined ? html`<${Loading} what="machines" />` : html`<div class="table-wrap">
    <table class="responsive">
      <caption class="skip">Machines</caption>
      <thead><tr><th scope="col">Machine</th><th scope="col">Owner or tags</th><th scope="col">Addresses</th>
        <th scope="col">Status</th><th scope="col">Key expiry</th></tr></thead>
      <tbody>${nodes.map((node) => html`<tr key=${node.id} data-machine=${node.name}>
        <td data-label="Machine"><a href=${'#/machines/' + node.id}>${node.name}</a>
          ${node.hostname !== node.name && html`<div class="muted">${node.hostname}</div>`}</td>
        <td data-label="Owner"><${Owner} node=${node} /></td>
        <td data-label="Addresses" class="mono">${node.ipv4}${node.ipv6 && html`<br />${node.ipv6}`}</td>
        <td data-label="Status"><${Status} node=${node} /></td>
        <td data-label="Key expiry">${node.keyExpiry ? html`<span title=${when(node.keyExpiry)}>${relative(node.keyExpiry)}</span>`
          : html`<span class="muted">never</span>`}</td>
      </tr>`)}</tbody>
    </table></div>`}
    ${data && data.nodes.length === 0 && html`<p>No machines yet. <a href="#/add">Add a machine</a>.</p>`}`;
}
