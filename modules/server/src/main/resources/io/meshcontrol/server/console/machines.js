// Machines: the list, searched, filtered, sorted and paged by the server (GET /api/v1/node takes them as query
// parameters, so 10,000 machines cost one page), kept current by the change events; several selected machines are
// approved, expired, tagged or deleted with one request (POST node/bulk), asked first when it takes something away.
import { html, useState, useEffect } from './vendor/preact-htm.js';
import { api, get, relative, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

/** The list shows machines, their owners and what the policy lets them do. */
const listChanged = (digest) => digest.nodes.length > 0 || digest.users.length > 0 || digest.policy;

/** Advertised routes no one approved yet. */
export function waitingRoutes(node) {
  return node.routes.available.filter((route) => !node.routes.approved.includes(route));
}

/** The "Show" choices, each a query parameter of GET /api/v1/node (docs/api.md, "Listing nodes"). */
const SHOW = [
  ['all', 'All machines', null],
  ['online', 'Online', 'online=true'],
  ['offline', 'Offline', 'online=false'],
  ['approval', 'Needs approval', 'needsApproval=true'],
  ['routes', 'Routes waiting', 'routesWaiting=true'],
  ['expired', 'Key expired', 'expired=true'],
  ['expiring', 'Key expiring within 7 days', 'keyExpiring=true'],
  ['update', 'Update available', 'updateAvailable=true'],
  ['exit', 'Exit nodes', 'exitNode=true'],
  ['router', 'Subnet routers', 'subnetRouter=true'],
];
const OSES = ['linux', 'windows', 'macOS', 'iOS', 'android', 'freebsd', 'openbsd'];
const PAGE = 100;

/** What each bulk action is called, and what is asked before a destructive one runs (n machines). */
const BULK = {
  approve: { label: 'Approve', done: 'approved' },
  expire: { label: 'Expire keys', done: 'with keys expired',
    ask: (n) => `Expire the keys of ${machines(n)}? They are cut off at once and must log in again.` },
  'disable-key-expiry': { label: 'Disable key expiry', done: 'with key expiry off',
    ask: (n) => `Turn key expiry off for ${machines(n)}? Their keys will never expire.` },
  'add-tags': { label: 'Add tags', done: 'tagged', tags: true,
    ask: (n, tags) => `Add ${tags.join(', ')} to ${machines(n)}? A user's machine then belongs to its tags, `
      + 'and what it may reach follows the policy for those tags at once.' },
  'remove-tags': { label: 'Remove tags', done: 'untagged', tags: true,
    ask: (n, tags) => `Remove ${tags.join(', ')} from ${machines(n)}? What they may reach changes at once.` },
  delete: { label: 'Delete', done: 'deleted', danger: true,
    ask: (n) => `Delete ${machines(n)}? They lose access at once, and must be added again to come back.` },
};

function machines(n) {
  return n === 1 ? '1 machine' : n + ' machines';
}

/** The list's query string: filters, sort and page as GET /api/v1/node takes them. */
export function listQuery({ text, show, os, version, tag, user, sort, order, offset }) {
  const params = new URLSearchParams();
  if (text.trim()) params.set('q', text.trim());
  const flag = SHOW.find(([value]) => value === show)[2];
  if (flag) params.set(...flag.split('='));
  if (os) params.set('os', os);
  if (version.trim()) params.set('version', version.trim());
  if (tag.trim()) params.set('tag', tag.trim());
  if (user.trim()) params.set('user', user.trim());
  if (sort) { params.set('sort', sort); params.set('order', order); }
  params.set('offset', String(offset));
  params.set('limit', String(PAGE));
  return params.toString();
}

/** `value`, once it has stayed the same for `ms` (typing in a filter reads the list once, not per key). */
function useSettled(value, ms = 250) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

export function Status({ node }) {
  return html`${node.online ? html`<span class="badge online">online</span>`
    : html`<span class="offline">${node.lastSeen ? 'last seen ' + relative(node.lastSeen) : 'never connected'}</span>`}
    ${!node.authorized && html` <span class="badge waiting">needs approval</span>`}
    ${waitingRoutes(node).length > 0 && html` <span class="badge waiting">routes waiting</span>`}
    ${node.expired && html` <span class="badge bad">key expired</span>`}
    ${node.suspended && html` <span class="badge bad">suspended</span>`}
    ${node.tailnetLockSign && html` <span class="badge bad" data-locked-out
      title=${'Peers refuse it under the tailnet lock. On a machine with a trusted key, run: ' + node.tailnetLockSign}>locked out</span>`}`;
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

/** What the client reports: OS and version, client release (and whether a newer one is out). */
export function Client({ node }) {
  const c = node.client;
  if (!c) return null;
  return html`${c.os ? html`<span>${c.os}</span>${c.osVersion && html` <span class="muted">${c.osVersion}</span>`}`
      : html`<span class="muted">unknown OS</span>`}
    <div>${c.version ? html`<span class="mono">${c.version}</span>` : html`<span class="muted">version unknown</span>`}
      ${c.updateAvailable && html` <span class="badge waiting" title=${'Latest: ' + c.latestVersion}>update available</span>`}</div>`;
}

/** Home relay region and what the server knows of the path: "relayed" when the client says UDP does not work. */
export function Relay({ node }) {
  const c = node.client;
  if (!c) return null;
  return html`${c.homeRegion ? (c.homeRegionName || 'region ' + c.homeRegion) : html`<span class="muted">none</span>`}
    ${c.connection === 'relayed' && html` <span class="badge waiting">relayed</span>`}`;
}

/** A column header that sorts the list by `column` (again: the other way). */
function SortHeader({ column, label, sort, order, onSort }) {
  const active = sort === column;
  return html`<th scope="col" aria-sort=${active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
    <button type="button" class="link sort" onClick=${() => onSort(column)}>${label}${active ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</button></th>`;
}

/** The actions on the selected machines: one request each (POST node/bulk), asked first when they take something away. */
function BulkBar({ selected, onDone, may }) {
  const [tags, setTags] = useState('');
  const [result, setResult] = useState(null);
  const action = useAction();
  if (!may('devices:core')) return null;
  const ids = [...selected];
  const run = (name) => {
    const spec = BULK[name];
    const tagList = tags.split(/[\s,]+/).filter(Boolean).map((t) => (t.startsWith('tag:') ? t : 'tag:' + t));
    if (spec.tags && tagList.length === 0) {
      action.setError(new Error('Name the tags to ' + (name === 'add-tags' ? 'add' : 'remove') + ' first.'));
      return;
    }
    if (spec.ask && !confirm(spec.ask(ids.length, tagList))) return;
    action.run(async () => {
      const answer = await api('POST', 'node/bulk', { action: name, ids, tags: spec.tags ? tagList : undefined });
      const { changed, unchanged } = answer.body;
      setResult(machines(changed.length) + ' ' + spec.done
        + (unchanged.length ? '; ' + machines(unchanged.length) + ' already were' : '') + '.');
      onDone();
    });
  };
  return html`<section class="bulk" aria-labelledby="bulk-title">
    <h2 id="bulk-title" class="skip">Selected machines</h2>
    <div class="row">
      <p aria-live="polite"><strong data-selected=${ids.length}>${ids.length ? machines(ids.length) + ' selected' : 'Select machines to act on several at once'}</strong></p>
      ${ids.length > 0 && html`${['approve', 'expire', 'disable-key-expiry'].map((name) => html`<button type="button"
          disabled=${action.busy} onClick=${() => run(name)}>${BULK[name].label}</button>`)}
        <div><label for="bulk-tags">Tags</label>
          <input id="bulk-tags" size="14" placeholder="tag:web" value=${tags} onInput=${(e) => setTags(e.target.value)} /></div>
        <button type="button" disabled=${action.busy} onClick=${() => run('add-tags')}>Add tags</button>
        <button type="button" disabled=${action.busy} onClick=${() => run('remove-tags')}>Remove tags</button>
        <button type="button" class="danger" disabled=${action.busy} onClick=${() => run('delete')}>Delete</button>`}
    </div>
    <${Problem} error=${action.error} />
    ${result && !action.error && html`<p class="notice ok" role="status">${result}</p>`}
  </section>`;
}

/** A "Show" choice named by the address (#/machines/show/<choice>, as the overview links), or all machines. */
function shown(params) {
  return params && SHOW.some(([value]) => value === params.show) ? params.show : 'all';
}

export default function Machines({ may = () => true, params }) {
  const [text, setText] = useState('');
  const [show, setShow] = useState(shown(params));
  // The page stays mounted from one address to the next (#/machines/show/approval, then #/machines): follow it.
  useEffect(() => setShow(shown(params)), [params && params.show]);
  const [os, setOs] = useState('');
  const [version, setVersion] = useState('');
  const [tag, setTag] = useState('');
  const [user, setUser] = useState('');
  const [sort, setSort] = useState('');
  const [order, setOrder] = useState('asc');
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState(new Set());
  const canChange = may('devices:core');
  // Settled as text: a string compares by value, so the list is read again only when a typed filter changed.
  const typed = JSON.parse(useSettled(JSON.stringify({ text, version, tag, user })));
  const query = listQuery({ ...typed, show, os, sort, order, offset });
  const [data, error, reload] = useLoad(() => get('node?' + query), [query], listChanged);
  // A changed filter starts again at the first page, with nothing selected.
  useEffect(() => { setOffset(0); setSelected(new Set()); }, [typed.text, typed.version, typed.tag, typed.user, show, os]);
  const nodes = data ? data.nodes : [];
  const total = data ? data.total : 0;
  const onSort = (column) => {
    if (sort === column) setOrder(order === 'asc' ? 'desc' : 'asc');
    else { setSort(column); setOrder('asc'); }
  };
  const toggle = (id) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id); else next.add(id);
    setSelected(next);
  };
  const allOnPage = nodes.length > 0 && nodes.every((n) => selected.has(n.id));
  const toggleAll = () => setSelected(allOnPage ? new Set() : new Set(nodes.map((n) => n.id)));
  const head = (column, label) => html`<${SortHeader} column=${column} label=${label} sort=${sort} order=${order} onSort=${onSort} />`;
  return html`<h1>Machines</h1>
    <div class="row" role="search">
      <div><label for="machine-search">Search</label>
        <input id="machine-search" type="search" value=${text} placeholder="name, owner, tag, address"
          onInput=${(e) => setText(e.target.value)} /></div>
      <div><label for="machine-filter">Show</label>
        <select id="machine-filter" value=${show} onChange=${(e) => setShow(e.target.value)}>
          ${SHOW.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select></div>
      <div><label for="machine-os">OS</label>
        <select id="machine-os" value=${os} onChange=${(e) => setOs(e.target.value)}>
          <option value="">Any</option>${OSES.map((o) => html`<option value=${o}>${o}</option>`)}
        </select></div>
      <div><label for="machine-version">Client version</label>
        <input id="machine-version" size="8" placeholder="1.80" value=${version} onInput=${(e) => setVersion(e.target.value)} /></div>
      <div><label for="machine-tag">Tag</label>
        <input id="machine-tag" size="10" placeholder="tag:web" value=${tag} onInput=${(e) => setTag(e.target.value)} /></div>
      <div><label for="machine-user">User</label>
        <input id="machine-user" size="10" value=${user} onInput=${(e) => setUser(e.target.value)} /></div>
      <p class="muted" aria-live="polite" data-total=${total}>${data ? (total === 0 ? 'No machines match'
        : 'Machines ' + (offset + 1) + '–' + (offset + nodes.length) + ' of ' + total) : ''}</p>
    </div>
    <${Problem} error=${error} />
    <${SshChecks} />
    <${BulkBar} selected=${selected} may=${may} onDone=${() => { setSelected(new Set()); reload(); }} />
    ${data === undefined ? html`<${Loading} what="machines" />` : html`<div class="table-wrap">
    <table class="responsive">
      <caption class="skip">Machines</caption>
      <thead><tr>${canChange && html`<th scope="col"><input type="checkbox" aria-label="Select every machine on this page"
          checked=${allOnPage} onChange=${toggleAll} /></th>`}
        ${head('name', 'Machine')}${head('user', 'Owner or tags')}${head('ipv4', 'Addresses')}${head('os', 'OS and client')}
        ${head('region', 'Relay')}${head('lastSeen', 'Status')}${head('keyExpiry', 'Key expiry')}${head('createdAt', 'Created')}</tr></thead>
      <tbody>${nodes.map((node) => html`<tr key=${node.id} data-machine=${node.name}>
        ${canChange && html`<td><input type="checkbox" aria-label=${'Select ' + node.name} checked=${selected.has(node.id)}
          onChange=${() => toggle(node.id)} /></td>`}
        <td data-label="Machine"><a href=${'#/machines/' + node.id}>${node.name}</a>
          ${node.hostname !== node.name && html`<div class="muted">${node.hostname}</div>`}</td>
        <td data-label="Owner"><${Owner} node=${node} /></td>
        <td data-label="Addresses" class="mono">${node.ipv4}${node.ipv6 && html`<br />${node.ipv6}`}
          ${node.client && node.client.endpoints.length > 0 && html`<details><summary>${node.client.endpoints.length} endpoint${node.client.endpoints.length === 1 ? '' : 's'}</summary>
            ${node.client.endpoints.map((e) => html`<div>${e}</div>`)}</details>`}</td>
        <td data-label="OS and client"><${Client} node=${node} /></td>
        <td data-label="Relay"><${Relay} node=${node} /></td>
        <td data-label="Status"><${Status} node=${node} /></td>
        <td data-label="Key expiry">${node.keyExpiry ? html`<span title=${when(node.keyExpiry)}>${relative(node.keyExpiry)}</span>`
          : html`<span class="muted">never</span>`}</td>
        <td data-label="Created"><span title=${when(node.createdAt)}>${relative(node.createdAt)}</span></td>
      </tr>`)}</tbody>
    </table></div>
    ${total > PAGE && html`<nav class="actions" aria-label="Pages of machines">
      <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>Previous page</button>
      <button type="button" disabled=${offset + PAGE >= total} onClick=${() => setOffset(offset + PAGE)}>Next page</button>
    </nav>`}`}
    ${data && total === 0 && !text && show === 'all' && !os && !version && !tag && !user
      && html`<p>No machines yet. <a href="#/add">Add a machine</a>.</p>`}`;
}
