// One machine: its facts, and what an administrator does to it (rename, tags, approve, expire, key expiry
// on or off, delete, routes).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when, relative } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';
import { Status, Owner } from './machines.js';

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
        onClick=${() => post(node.suspended ? 'unsuspend' : 'suspend')}>${node.suspended ? 'Unsuspend' : 'Suspend'}</button>
      <button type="button" class="danger" disabled=${action.busy}
        onClick=${() => confirm('Delete ' + node.name + '? Its peers stop seeing it.')
          && action.run(async () => { await api('DELETE', 'node/' + node.id); location.hash = '#/machines'; })}>Delete machine</button>
    </div>
  </section>`;
}

export default function Machine({ params, may }) {
  const [node, error, reload] = useLoad(() => get('node/' + encodeURIComponent(params.id)), [params.id], 3000);
  if (node === undefined) return html`<h1>Machine</h1><${Problem} error=${error} />${!error && html`<${Loading} what="the machine" />`}`;
  return html`<p><a href="#/machines">← All machines</a></p>
    <h1>${node.name}</h1>
    <${Problem} error=${error} />
    <p><${Status} node=${node} /></p>
    <dl class="facts">
      <dt>Host name</dt><dd>${node.hostname}</dd>
      <dt>Owner</dt><dd><${Owner} node=${node} /></dd>
      <dt>Addresses</dt><dd class="mono">${[node.ipv4, node.ipv6].filter(Boolean).join(', ')}</dd>
      <dt>Key expiry</dt><dd data-key-expiry=${node.keyExpiry ? 'on' : 'off'}>${node.keyExpiry ? when(node.keyExpiry) + ' (' + relative(node.keyExpiry) + ')' : 'never'}</dd>
      <dt>Joined</dt><dd>${when(node.createdAt)} (${node.registerMethod})</dd>
      <dt>Last seen</dt><dd>${node.online ? 'now' : node.lastSeen ? when(node.lastSeen) : 'never'}</dd>
      <dt>Ephemeral</dt><dd>${node.ephemeral ? 'yes' : 'no'}</dd>
      <dt>Node key</dt><dd class="mono">${node.nodeKey}</dd>
    </dl>
    <${Routes} node=${node} may=${may} onChange=${reload} />
    <${Edit} key=${node.id + node.name + node.tags.join()} node=${node} may=${may} onChange=${reload} />`;
}
