// One machine: its facts, its peers and packet filter as its map carries them, and what an administrator does to
// it (rename, tags, approve, expire, key expiry on or off, delete, routes).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when, relative } from './api.js';
import { useLoad, useAction, Problem, Loading, Address, Ports } from './ui.js';
import { Status, Owner, Client, Relay } from './machines.js';

const EXIT = ['0.0.0.0/0', '::/0'];
const isExit = (route) => EXIT.includes(route);

function Routes({ node, may, onChange }) {
  const action = useAction();
  const routes = node.routes;
  const canChange = may('devices:routes');
  const set = (approved) => action.run(async () => {
    await api('POST', 'node/' + node.id + '/routes', { routes: approved });
    onChange();
  });
  const subnets = [...new Set([...routes.available, ...routes.approved])].filter((r) => !isExit(r));
  const exitOffered = routes.available.some(isExit);
  const exitApproved = routes.approved.some(isExit);
  return html`<section aria-labelledby="routes-title">
    <h2 id="routes-title">Routes</h2>
    <${Problem} error=${action.error} />
    ${subnets.length === 0 && !exitOffered && html`<p class="muted">This machine advertises no routes.</p>`}
    ${subnets.length > 0 && html`<div class="table-wrap"><table>
      <thead><tr><th scope="col">Subnet route</th><th scope="col">State</th><th scope="col"><span class="skip">Action</span></th></tr></thead>
      <tbody>${subnets.map((route) => {
        const approved = routes.approved.includes(route);
        return html`<tr key=${route} data-route=${route}>
          <td class="mono">${route}</td>
          <td>${approved ? (routes.serving.includes(route) ? 'approved, serving' : 'approved')
            : html`<span class="waiting">waiting for approval</span>`}
            ${!routes.available.includes(route) && html` <span class="muted">(not advertised)</span>`}</td>
          <td>${canChange && (approved
            ? html`<button type="button" class="danger" disabled=${action.busy}
                onClick=${() => set(routes.approved.filter((r) => r !== route))}>Revoke ${route}</button>`
            : html`<button type="button" class="primary" disabled=${action.busy}
                onClick=${() => set([...routes.approved, route])}>Approve ${route}</button>`)}</td>
        </tr>`;
      })}</tbody></table></div>`}
    ${(exitOffered || exitApproved) && html`<p>Exit node: ${exitApproved ? 'approved' : html`<span class="waiting">offered, waiting for approval</span>`}
      ${canChange && (exitApproved
        ? html` <button type="button" class="danger" disabled=${action.busy}
            onClick=${() => set(routes.approved.filter((r) => !isExit(r)))}>Revoke exit node</button>`
        : html` <button type="button" class="primary" disabled=${action.busy}
            onClick=${() => set([...routes.approved, ...EXIT])}>Approve exit node</button>`)}</p>`}
    ${exitOffered && html`<${GlobalExit} node=${node} canChange=${canChange} onChange=${onChange} />`}
  </section>`;
}

/** The global exit node mark and its priority (docs/routes.md, "Global exit nodes"). */
function GlobalExit({ node, canChange, onChange }) {
  const routes = node.routes;
  const [priority, setPriority] = useState(String(routes.exitNodePriority));
  const action = useAction();
  const mark = (body) => action.run(async () => { await api('POST', 'node/' + node.id + '/global-exit-node', body); onChange(); });
  return html`<div data-global-exit=${routes.globalExitNode ? 'marked' : 'not marked'}>
    <p>Global exit node: ${routes.globalExitNode ? html`<strong>marked</strong>, priority ${routes.exitNodePriority}`
      : 'not marked'} <a href="#/exit-nodes">(all exit nodes)</a></p>
    <${Problem} error=${action.error} />
    ${canChange && html`<form class="row" onSubmit=${(e) => { e.preventDefault();
        mark({ enabled: true, priority: Number(priority) }); }}>
      <div><label for="exit-priority">Priority (higher preferred, 0 last)</label>
        <input id="exit-priority" type="number" min="0" step="1" required value=${priority}
          onInput=${(e) => setPriority(e.target.value)} /></div>
      <button type="submit" class="primary" disabled=${action.busy}>
        ${routes.globalExitNode ? 'Set priority' : 'Mark as global exit node'}</button>
      ${routes.globalExitNode && html`<button type="button" class="danger" disabled=${action.busy}
        onClick=${() => confirm('Clear the global exit node mark of ' + node.name + '? Its priority goes back to 0.')
          && mark({ enabled: false })}>Clear the mark</button>`}
    </form>`}
  </div>`;
}

/** Addresses to machine names, so that filter rules read as machines, not numbers. */
function namesOf(node, peers) {
  const names = new Map();
  for (const machine of [node, ...peers]) {
    for (const address of [machine.ipv4, machine.ipv6].filter(Boolean)) names.set(address, machine.name);
  }
  return names;
}

/** Packet-filter rules as a person reads them (from, to with ports, protocols), as the API words them. */
function FilterRules({ rules, names, caption }) {
  return html`<div class="table-wrap"><table class="responsive" aria-label=${caption}>
    <thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Protocols</th></tr></thead>
    <tbody>${rules.map((rule, i) => html`<tr key=${i} data-filter-rule=${i}>
      <td data-label="From">${rule.sources.map((source) => html`<div><${Address} address=${source} names=${names} /></div>`)}</td>
      <td data-label="To">${rule.destinations.map((dst) => html`<div><${Address} address=${dst.address} names=${names} />${dst.ports && html`<${Ports} ports=${dst.ports} />`}</div>`)}</td>
      <td data-label="Protocols">${rule.capabilities.length ? 'capabilities: ' + rule.capabilities.join(', ') : rule.protocols.join(', ')}</td>
    </tr>`)}</tbody></table></div>`;
}

/** The peers and the packet filter this machine's map gives it, refreshed with the page. */
function Access({ node, may }) {
  const [data, error] = useLoad(() => Promise.all([get('node/' + node.id + '/peers'), get('node/' + node.id + '/packet-filter')])
    .then(([peers, filter]) => ({ peers: peers.peers, rules: filter.rules })), [node.id],
    (digest) => digest.nodes.length > 0 || digest.users.length > 0 || digest.policy);
  if (data === undefined) return html`<${Problem} error=${error} />${!error && html`<${Loading} what="peers and packet filter" />`}`;
  const names = namesOf(node, data.peers);
  return html`<section aria-labelledby="peers-title">
      <h2 id="peers-title">Peers</h2>
      <p class="muted">The machines this machine's map gives it: those the policy lets it reach, or that may reach it.</p>
      <${Problem} error=${error} />
      ${data.peers.length === 0 ? html`<p class="muted">No peers${node.authorized && !node.suspended ? '' : ' while it is not approved or is suspended'}.</p>`
        : html`<div class="table-wrap"><table class="responsive">
          <thead><tr><th scope="col">Peer</th><th scope="col">Owner</th><th scope="col">Addresses</th><th scope="col">Status</th></tr></thead>
          <tbody>${data.peers.map((peer) => html`<tr key=${peer.id} data-peer=${peer.name}>
            <td data-label="Peer">${may('devices:core:read') ? html`<a href=${'#/machines/' + peer.id}>${peer.name}</a>` : peer.name}</td>
            <td data-label="Owner"><${Owner} node=${peer} /></td>
            <td data-label="Addresses" class="mono">${[peer.ipv4, peer.ipv6].filter(Boolean).join(', ')}</td>
            <td data-label="Status">${peer.online ? html`<span class="badge online">online</span>` : html`<span class="offline">offline</span>`}</td>
          </tr>`)}</tbody></table></div>`}
    </section>
    <section aria-labelledby="filter-title">
      <h2 id="filter-title">Packet filter</h2>
      <p class="muted">Who may reach this machine, as the policy compiles it: the rules its map carries, checked in this order.</p>
      ${data.rules.length === 0 ? html`<p data-filter-empty>Nothing may reach this machine.</p>`
        : html`<${FilterRules} rules=${data.rules} names=${names} caption="The packet filter of this machine" />`}
    </section>`;
}

function Edit({ node, may, onChange }) {
  const [name, setName] = useState(node.name);
  const [tags, setTags] = useState(node.tags.join(', '));
  const action = useAction();
  if (!may('devices:core')) return null;
  const post = (what, body) => action.run(async () => { await api('POST', 'node/' + node.id + '/' + what, body); onChange(); });
  return html`<section aria-labelledby="manage-title"><h2 id="manage-title">Manage</h2>
    <${Problem} error=${action.error} />
    <form class="row" onSubmit=${(e) => { e.preventDefault(); post('rename', { name }); }}>
      <div><label for="machine-name">Name</label>
        <input id="machine-name" value=${name} maxlength="63" onInput=${(e) => setName(e.target.value)} /></div>
      <button type="submit" disabled=${action.busy}>Rename</button>
    </form>
    <form class="row" onSubmit=${(e) => { e.preventDefault();
      post('tags', { tags: tags.split(/[\s,]+/).filter(Boolean) }); }}>
      <div><label for="machine-tags">Tags (tag:name, separated by commas)</label>
        <input id="machine-tags" value=${tags} onInput=${(e) => setTags(e.target.value)} /></div>
      <button type="submit" disabled=${action.busy}>Set tags</button>
    </form>
    <label class="inline"><input type="checkbox" id="machine-key-expiry" checked=${!node.keyExpiry} disabled=${action.busy}
      onChange=${(e) => post('key-expiry', { disabled: e.target.checked })} /> Key never expires (key expiry off)</label>
    <div class="actions">
      ${!node.authorized && html`<button type="button" class="primary" disabled=${action.busy}
        onClick=${() => post('approve')}>Approve machine</button>`}
      <button type="button" disabled=${action.busy || node.expired}
        onClick=${() => confirm('Expire the key of ' + node.name + '? It must log in again.') && post('expire')}>Expire key</button>
      <button type="button" disabled=${action.busy}
        onClick=${() => (node.suspended || confirm('Suspend ' + node.name + '? It loses its peers and is no one\'s peer, '
          + 'subnet router or exit node until unsuspended.')) && post(node.suspended ? 'unsuspend' : 'suspend')}>${node.suspended ? 'Unsuspend' : 'Suspend'}</button>
      <button type="button" class="danger" disabled=${action.busy}
        onClick=${() => confirm('Delete ' + node.name + '? Its peers stop seeing it.')
          && action.run(async () => { await api('DELETE', 'node/' + node.id); location.hash = '#/machines'; })}>Delete machine</button>
    </div>
  </section>`;
}

export default function Machine({ params, may }) {
  const [node, error, reload] = useLoad(() => get('node/' + encodeURIComponent(params.id)), [params.id],
    (digest) => digest.nodes.includes(String(params.id)) || digest.users.length > 0 || digest.policy);
  if (node === undefined) return html`<h1>Machine</h1><${Problem} error=${error} />${!error && html`<${Loading} what="the machine" />`}`;
  return html`<p><a href="#/machines">← All machines</a></p>
    <h1>${node.name}</h1>
    <${Problem} error=${error} />
    <p><${Status} node=${node} /></p>
    <dl class="facts">
      <dt>Host name</dt><dd>${node.hostname}</dd>
      <dt>Owner</dt><dd><${Owner} node=${node} /></dd>
      <dt>Addresses</dt><dd class="mono">${[node.ipv4, node.ipv6].filter(Boolean).join(', ')}</dd>
      ${node.location && html`<dt>Location</dt><dd data-location=${node.location.country}>${[node.location.city, node.location.country].filter(Boolean).join(', ')} <span class="mono">(${node.location.address})</span></dd>`}
      ${node.client && html`<dt>OS and client</dt><dd data-client><${Client} node=${node} /></dd>
        <dt>Home relay</dt><dd><${Relay} node=${node} /></dd>
        <dt>Endpoints</dt><dd class="mono">${node.client.endpoints.join(', ') || html`<span class="muted">none reported</span>`}</dd>`}
      <dt>Key expiry</dt><dd data-key-expiry=${node.keyExpiry ? 'on' : 'off'}>${node.keyExpiry ? when(node.keyExpiry) + ' (' + relative(node.keyExpiry) + ')' : 'never'}</dd>
      <dt>Joined</dt><dd>${when(node.createdAt)} (${node.registerMethod})</dd>
      ${node.tailnetLockSign && html`<dt>Tailnet lock</dt><dd data-tailnet-lock>Locked out: peers refuse it until a
        machine with a trusted key signs it with <code>${node.tailnetLockSign}</code></dd>`}
      <dt>Last seen</dt><dd>${node.online ? 'now' : node.lastSeen ? when(node.lastSeen) : 'never'}</dd>
      <dt>Ephemeral</dt><dd>${node.ephemeral ? 'yes' : 'no'}</dd>
      <dt>Node key</dt><dd class="mono">${node.nodeKey}</dd>
    </dl>
    <${Routes} node=${node} may=${may} onChange=${reload} />
    <${Access} node=${node} may=${may} />
    <${Edit} key=${node.id + node.name + node.tags.join()} node=${node} may=${may} onChange=${reload} />`;
}
