// Keys: API keys (create with scopes, rotate, expire; a secret is shown once) and pre-auth keys.
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading, Secret } from './ui.js';
import { DurationField, KEY_PRESETS, toGo } from './duration.js';

/**
 * Several keys picked by checkbox, then revoked with one request (POST <list>/bulk), asked first.
 * `ids`: the ids of the keys that can be picked (those still valid).
 */
function useKeySelection(ids) {
  const [selected, setSelected] = useState(new Set());
  const picked = [...selected].filter((id) => ids.includes(id));
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  return {
    picked,
    has: (id) => selected.has(id),
    toggle: (id) => { const next = new Set(selected); if (next.has(id)) next.delete(id); else next.add(id); setSelected(next); },
    toggleAll: () => setSelected(all ? new Set() : new Set(ids)),
    all,
    clear: () => setSelected(new Set()),
  };
}

function BulkRevoke({ selection, what, verb, list, action, onDone, consequence }) {
  const n = selection.picked.length;
  const count = n + ' ' + what + (n === 1 ? '' : 's');
  const run = () => confirm(verb + ' ' + count + '? ' + consequence) && action.run(async () => {
    await api('POST', list + '/bulk', { action: verb.toLowerCase(), ids: selection.picked });
    selection.clear();
    onDone();
  });
  return html`<div class="row"><p aria-live="polite">${n ? count + ' selected' : ''}</p>
    ${n > 0 && html`<button type="button" class="danger" disabled=${action.busy} onClick=${run}>${verb} ${count}</button>`}</div>`;
}

function ApiKeys({ may }) {
  const [data, error, reload] = useLoad(() => get('apikey'));
  const [form, setForm] = useState({ description: '', scopes: '', expiration: '90 days' });
  const [issued, setIssued] = useState(null);
  const action = useAction();
  const canChange = may('api_access_tokens');
  const selection = useKeySelection(data ? data.apiKeys.filter((k) => !k.expired).map((k) => k.prefix) : []);
  const issue = (label, call) => action.run(async () => {
    const answer = await call();
    setIssued({ label, secret: answer.body.secret });
    reload();
  });
  const create = (e) => {
    e.preventDefault();
    const scopes = form.scopes.split(/[\s,]+/).filter(Boolean);
    issue('The new API key.', () => api('POST', 'apikey', {
      description: form.description || null, scopes: scopes.length ? scopes : null, expiration: toGo(form.expiration),
    }));
  };
  return html`<section aria-labelledby="apikeys-title"><h2 id="apikeys-title">API keys</h2>
    <${Problem} error=${error || action.error} />
    ${issued && html`<${Secret} label=${issued.label} value=${issued.secret} />`}
    ${canChange && html`<form onSubmit=${create}><div class="row">
      <div><label for="apikey-description">Description</label>
        <input id="apikey-description" value=${form.description} onInput=${(e) => setForm({ ...form, description: e.target.value })} /></div>
      <div><label for="apikey-scopes">Scopes (empty: all your role allows)</label>
        <input id="apikey-scopes" value=${form.scopes} placeholder="devices:core:read, policy_file"
          onInput=${(e) => setForm({ ...form, scopes: e.target.value })} /></div>
      <${DurationField} id="apikey-expiration" label="Valid for" value=${form.expiration} presets=${KEY_PRESETS}
        onChange=${(expiration) => setForm({ ...form, expiration })} />
      <button class="primary" type="submit" disabled=${action.busy}>Create API key</button>
    </div></form>`}
    ${canChange && html`<${BulkRevoke} selection=${selection} what="API key" verb="Expire" list="apikey" action=${action}
      onDone=${reload} consequence="They stop working at once, and sessions signed in with them end." />`}
    ${data === undefined ? html`<${Loading} what="API keys" />` : html`<div class="table-wrap"><table class="responsive">
      <thead><tr>${canChange && html`<th scope="col"><input type="checkbox" aria-label="Select every API key that can expire"
        checked=${selection.all} onChange=${selection.toggleAll} /></th>`}<th scope="col">Key</th><th scope="col">Owner</th><th scope="col">Scopes</th><th scope="col">Expires</th>
        <th scope="col">Last used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
      <tbody>${data.apiKeys.map((key) => html`<tr key=${key.id} data-apikey=${key.description || key.prefix}>
        ${canChange && html`<td>${!key.expired && html`<input type="checkbox" aria-label=${'Select ' + (key.description || key.prefix)}
          checked=${selection.has(key.prefix)} onChange=${() => selection.toggle(key.prefix)} />`}</td>`}
        <td data-label="Key"><span class="mono">${key.prefix}</span> ${key.description}</td>
        <td data-label="Owner">${key.user || html`<span class="muted">all access</span>`}</td>
        <td data-label="Scopes">${key.scopes.length ? key.scopes.map((s) => html`<span class="badge">${s}</span>`) : html`<span class="muted">the role's</span>`}</td>
        <td data-label="Expires">${key.expired ? html`<span class="bad">expired</span>` : when(key.expiresAt) || 'never'}</td>
        <td data-label="Last used">${when(key.lastUsedAt) || html`<span class="muted">never</span>`}</td>
        <td>${canChange && !key.expired && html`<button type="button" disabled=${action.busy}
            onClick=${() => confirm('Rotate the key ' + (key.description || key.prefix) + '? Its secret stops working at once, '
              + 'and sessions signed in with it end; the new secret is shown once.')
              && issue('The rotated key ' + (key.description || key.prefix) + '; the old secret no longer works.',
              () => api('POST', 'apikey/' + key.prefix + '/rotate'))}>Rotate ${key.description || key.prefix}</button>
          <button type="button" class="danger" disabled=${action.busy}
            onClick=${() => confirm('Expire the key ' + (key.description || key.prefix) + '? It stops working at once.')
              && action.run(async () => { await api('POST', 'apikey/' + key.prefix + '/expire'); reload(); })}>Expire</button>`}</td>
      </tr>`)}</tbody></table></div>`}
  </section>`;
}

function PreAuthKeys({ may }) {
  const [data, error, reload] = useLoad(() => get('preauthkey'));
  const action = useAction();
  const canRevoke = may('auth_keys');
  const selection = useKeySelection(data ? data.preAuthKeys.filter((k) => k.valid).map((k) => k.id) : []);
  return html`<section aria-labelledby="preauth-title"><h2 id="preauth-title">Pre-auth keys</h2>
    <p>Keys that join machines. <a href="#/add">Add a machine</a> makes one.</p>
    <${Problem} error=${error || action.error} />
    ${canRevoke && html`<${BulkRevoke} selection=${selection} what="pre-auth key" verb="Revoke" list="preauthkey"
      action=${action} onDone=${reload} consequence="No machine can join with them any more; machines that joined with them stay." />`}
    ${data === undefined ? html`<${Loading} what="pre-auth keys" />` : html`<div class="table-wrap"><table class="responsive">
      <thead><tr>${canRevoke && html`<th scope="col"><input type="checkbox" aria-label="Select every valid pre-auth key"
        checked=${selection.all} onChange=${selection.toggleAll} /></th>`}<th scope="col">Key</th><th scope="col">Owner or tags</th><th scope="col">Kind</th><th scope="col">State</th>
        <th scope="col">Used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
      <tbody>${data.preAuthKeys.map((key) => html`<tr key=${key.id} data-preauthkey=${key.prefix}>
        ${canRevoke && html`<td>${key.valid && html`<input type="checkbox" aria-label=${'Select ' + (key.description || key.prefix)}
          checked=${selection.has(key.id)} onChange=${() => selection.toggle(key.id)} />`}</td>`}
        <td data-label="Key"><span class="mono">${key.prefix}</span> ${key.description}</td>
        <td data-label="Owner">${key.tags.length ? key.tags.map((t) => html`<span class="badge">${t}</span>`) : key.user}</td>
        <td data-label="Kind">${[key.reusable && 'reusable', key.ephemeral && 'ephemeral', key.preauthorized && 'pre-approved'].filter(Boolean).join(', ') || 'single use'}</td>
        <td data-label="State">${key.valid ? 'valid until ' + when(key.expiresAt) : html`<span class="muted">${key.invalidReason || 'not valid'}</span>`}</td>
        <td data-label="Used">${key.useCount}×</td>
        <td>${may('auth_keys') && key.valid && html`<button type="button" class="danger" disabled=${action.busy}
          onClick=${() => confirm('Revoke the pre-auth key ' + (key.description || key.prefix) + '? No machine can join with it '
            + 'any more; machines that joined with it stay.')
            && action.run(async () => { await api('DELETE', 'preauthkey/' + key.id); reload(); })}>Revoke</button>`}</td>
      </tr>`)}</tbody></table></div>`}
  </section>`;
}

export default function Keys({ may }) {
  return html`<h1>Keys</h1>
    ${may('api_access_tokens:read') && html`<${ApiKeys} may=${may} />`}
    ${may('auth_keys:read') && html`<${PreAuthKeys} may=${may} />`}
    ${!may('api_access_tokens:read') && !may('auth_keys:read') && html`<p>Your role cannot see keys.</p>`}`;
}
