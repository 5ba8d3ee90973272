// Apps and app connectors: each app's domains, connector selectors and static routes, and the connector machines
// acting for it with their learned and pending routes; create, change, delete (docs/apps.md).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

const list = (text) => text.split(/[\s,]+/).filter(Boolean);
const EMPTY = { name: '', description: '', domains: '', connectors: '', routes: '' };

function AppForm({ app, busy, onSave, onCancel }) {
  const [form, setForm] = useState(app ? { name: app.name, description: app.description || '',
    domains: app.domains.join(', '), connectors: app.connectors.join(', '), routes: app.routes.join(', ') } : EMPTY);
  const id = (field) => 'app-' + (app ? app.id : 'new') + '-' + field;
  const field = (name, label, help) => html`<div><label for=${id(name)}>${label}</label>
    <input id=${id(name)} value=${form[name]} placeholder=${help} required=${name === 'name'}
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  const submit = (e) => {
    e.preventDefault();
    onSave({ name: form.name, description: form.description || null, domains: list(form.domains),
      connectors: list(form.connectors), routes: list(form.routes) }).then((saved) => { if (saved && !app) setForm(EMPTY); });
  };
  return html`<form onSubmit=${submit}><div class="row">
    ${field('name', 'Name', 'github')}
    ${field('description', 'Description', '')}
    ${field('domains', 'Domains (commas)', 'github.com, *.github.com')}
    ${field('connectors', 'Connectors (tags; empty: any)', 'tag:connector')}
    ${field('routes', 'Static routes', '192.0.2.0/24')}
    <button class="primary" type="submit" disabled=${busy}>${app ? 'Save ' + app.name : 'Create app'}</button>
    ${onCancel && html`<button type="button" onClick=${onCancel}>Cancel</button>`}
  </div></form>`;
}

function Connectors({ app }) {
  if (app.connectorNodes.length === 0) {
    return html`<p class="muted">No connector machine acts for this app yet: a machine tagged
      ${app.connectors.length ? app.connectors.join(' or ') : 'with any tag'} running
      <code>tailscale up --advertise-connector</code> does.</p>`;
  }
  return html`<div class="table-wrap"><table class="responsive" aria-label=${'Connectors of ' + app.name}>
    <thead><tr><th scope="col">Connector machine</th><th scope="col">Tags</th><th scope="col">Status</th>
      <th scope="col">Learned routes</th><th scope="col">Pending routes</th></tr></thead>
    <tbody>${app.connectorNodes.map((c) => html`<tr key=${c.nodeId} data-connector=${c.name}>
      <td data-label="Machine"><a href=${'#/machines/' + c.nodeId}>${c.name}</a></td>
      <td data-label="Tags">${c.tags.map((t) => html`<span class="badge">${t}</span>`)}</td>
      <td data-label="Status">${c.online ? html`<span class="badge online">online</span>` : html`<span class="offline">offline</span>`}</td>
      <td data-label="Learned">${c.learnedRoutes}</td>
      <td data-label="Pending">${c.pendingRoutes ? html`<a href=${'#/machines/' + c.nodeId}>
        <span class="waiting">${c.pendingRoutes} waiting</span></a>` : '0'}</td>
    </tr>`)}</tbody></table></div>`;
}

export default function Apps({ may }) {
  const [data, error, reload] = useLoad(() => get('apps'), [], 5000);
  const [editing, setEditing] = useState(null);
  const action = useAction();
  const canChange = may('policy_file');
  const save = (call) => action.run(async () => { await call(); setEditing(null); reload(); return true; });
  return html`<h1>Apps</h1>
    <p>Domains reached through app connector machines, which learn the domains' addresses and route them.</p>
    <${Problem} error=${error || action.error} />
    ${canChange && html`<section aria-labelledby="app-new-title"><h2 id="app-new-title">New app</h2>
      <${AppForm} busy=${action.busy} onSave=${(body) => save(() => api('POST', 'apps', body))} /></section>`}
    ${data === undefined ? !error && html`<${Loading} what="apps" />`
      : data.apps.length === 0 ? html`<p class="muted">No apps.</p>`
      : data.apps.map((app) => html`<section key=${app.id} data-app=${app.name} aria-labelledby=${'app-title-' + app.id}>
        <h2 id=${'app-title-' + app.id}>${app.name}</h2>
        ${app.description && html`<p>${app.description}</p>`}
        ${editing === app.id ? html`<${AppForm} app=${app} busy=${action.busy} onCancel=${() => setEditing(null)}
            onSave=${(body) => save(() => api('PUT', 'app/' + app.id, body))} />`
          : html`<dl class="facts">
            <dt>Domains</dt><dd>${app.domains.map((d) => html`<span class="badge mono">${d}</span>`)}</dd>
            <dt>Connectors</dt><dd>${app.connectors.length ? app.connectors.map((c) => html`<span class="badge">${c}</span>`) : 'any tagged connector'}</dd>
            <dt>Static routes</dt><dd>${app.routes.length ? app.routes.map((r) => html`<span class="badge mono">${r}</span>`) : html`<span class="muted">none</span>`}</dd>
            <dt>Changed</dt><dd>${when(app.updatedAt)}</dd></dl>
            ${canChange && html`<div class="actions"><button type="button" onClick=${() => setEditing(app.id)}>Edit ${app.name}</button>
              <button type="button" class="danger" disabled=${action.busy}
                onClick=${() => confirm('Delete the app ' + app.name + '? Its connectors stop routing its domains.')
                  && save(() => api('DELETE', 'app/' + app.id))}>Delete ${app.name}</button></div>`}`}
        <h3>Connector machines</h3>
        <${Connectors} app=${app} />
      </section>`)}`;
}
