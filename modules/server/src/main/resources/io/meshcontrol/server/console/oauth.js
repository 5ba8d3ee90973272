// OAuth clients (a secret shown once) and federated identities (a workload's token from a trusted issuer, with the
// subject and claim rules it must match): create, change, revoke (docs/identity.md).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading, Secret } from './ui.js';

const list = (text) => text.split(/[\s,]+/).filter(Boolean);
/** "name=pattern" lines to a map, and back. */
const rules = (text) => Object.fromEntries(text.split('\n').map((l) => l.trim()).filter(Boolean)
  .map((l) => [l.slice(0, l.indexOf('=') < 0 ? l.length : l.indexOf('=')).trim(), l.includes('=') ? l.slice(l.indexOf('=') + 1).trim() : '']));
const ruleText = (map) => Object.entries(map || {}).map(([k, v]) => k + '=' + v).join('\n');

function ClientForm({ client, kind, busy, onSave, onCancel }) {
  const federated = (client ? client.keyType : kind) === 'federated';
  const [form, setForm] = useState({ description: client ? client.description : '', scopes: client ? client.scopes.join(', ') : '',
    tags: client ? client.tags.join(', ') : '', issuer: (client && client.issuer) || '', audience: (client && client.audience) || '',
    subject: (client && client.subject) || '', claims: client ? ruleText(client.customClaimRules) : '' });
  const id = (name) => 'oauth-' + (client ? client.id : kind) + '-' + name;
  const input = (name, label, placeholder, required) => html`<div><label for=${id(name)}>${label}</label>
    <input id=${id(name)} value=${form[name]} placeholder=${placeholder} required=${required}
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  const submit = (e) => {
    e.preventDefault();
    const body = { scopes: list(form.scopes), tags: list(form.tags), description: form.description };
    if (!client) body.keyType = kind;
    if (federated) Object.assign(body, { issuer: form.issuer, audience: form.audience || null, subject: form.subject,
      customClaimRules: rules(form.claims) });
    onSave(body).then((ok) => { if (ok && !client) setForm({ ...form, description: '', subject: '', claims: '' }); });
  };
  return html`<form onSubmit=${submit}><div class="row">
    ${input('description', 'Description', '')}
    ${input('scopes', 'Scopes', 'devices:core, auth_keys', true)}
    ${input('tags', 'Tags it may use', 'tag:ci')}
    ${federated && html`${input('issuer', 'Issuer (URL)', 'https://token.actions.githubusercontent.com', !client)}
      ${input('audience', 'Audience', '')}
      ${input('subject', 'Subject (* matches any text)', 'repo:example/app:*', !client)}`}
  </div>
  ${federated && html`<div><label for=${id('claims')}>Claim rules (one name=pattern a line)</label>
    <textarea id=${id('claims')} rows="3" cols="50" value=${form.claims}
      onInput=${(e) => setForm({ ...form, claims: e.target.value })}></textarea></div>`}
  <div class="actions"><button class="primary" type="submit" disabled=${busy}>
    ${client ? 'Save ' + (client.description || client.id) : federated ? 'Create federated identity' : 'Create OAuth client'}</button>
    ${onCancel && html`<button type="button" onClick=${onCancel}>Cancel</button>`}</div>
  </form>`;
}

function Clients({ title, kind, clients, canChange, action, onChange, onIssued }) {
  const [editing, setEditing] = useState(null);
  const save = (call) => action.run(async () => { const answer = await call(); setEditing(null); onChange(); return answer || true; });
  const create = (body) => save(() => api('POST', 'oauth-client', body)).then((answer) => {
    if (answer && answer.body && answer.body.secret) onIssued('The secret of OAuth client ' + answer.body.oauthClient.id + '.', answer.body.secret);
    return answer;
  });
  const shown = clients.filter((c) => c.keyType === kind);
  return html`<section aria-labelledby=${kind + '-title'}><h2 id=${kind + '-title'}>${title}</h2>
    ${canChange && html`<${ClientForm} kind=${kind} busy=${action.busy} onSave=${create} />`}
    ${shown.length === 0 ? html`<p class="muted">None.</p>` : html`<ul class="cards">${shown.map((c) => html`<li class="card"
        key=${c.id} data-oauth-client=${c.description || c.id}>
      <p><strong class="mono">${c.id}</strong> ${c.description}
        ${c.revoked && html` <span class="badge bad">revoked</span>`}</p>
      ${editing === c.id ? html`<${ClientForm} client=${c} busy=${action.busy} onCancel=${() => setEditing(null)}
          onSave=${(body) => save(() => api('PATCH', 'oauth-client/' + encodeURIComponent(c.id), body))} />`
        : html`<dl class="facts">
          <dt>Scopes</dt><dd>${c.scopes.map((s) => html`<span class="badge">${s}</span>`)}</dd>
          <dt>Tags</dt><dd>${c.tags.length ? c.tags.map((t) => html`<span class="badge">${t}</span>`) : html`<span class="muted">none</span>`}</dd>
          ${c.keyType === 'federated' && html`<dt>Issuer</dt><dd class="mono">${c.issuer}</dd>
            <dt>Audience</dt><dd class="mono">${c.audience || html`<span class="muted">any</span>`}</dd>
            <dt>Subject</dt><dd class="mono">${c.subject}</dd>
            <dt>Claim rules</dt><dd>${Object.keys(c.customClaimRules || {}).length
              ? Object.entries(c.customClaimRules).map(([k, v]) => html`<div class="mono">${k} = ${v}</div>`) : html`<span class="muted">none</span>`}</dd>`}
          <dt>Created</dt><dd>${when(c.createdAt)} by ${c.creator}</dd></dl>
          ${canChange && !c.revoked && html`<div class="actions">
            <button type="button" onClick=${() => setEditing(c.id)}>Edit ${c.description || c.id}</button>
            <button type="button" class="danger" disabled=${action.busy}
              onClick=${() => confirm('Revoke ' + (c.description || c.id) + '? Its secret and every token it got stop working at once.')
                && save(() => api('DELETE', 'oauth-client/' + encodeURIComponent(c.id)))}>Revoke</button></div>`}`}
    </li>`)}</ul>`}
  </section>`;
}

export default function OAuthClients({ may }) {
  const [data, error, reload] = useLoad(() => get('oauth-client'));
  const [issued, setIssued] = useState(null);
  const action = useAction();
  const common = { action, onChange: reload, onIssued: (label, secret) => setIssued({ label, secret }) };
  return html`<h1>OAuth clients and federated identities</h1>
    <p>Credentials for programs: an OAuth client trades its secret for short-lived tokens; a federated identity trades
      a workload's own token (from a CI system, a cloud) that matches its issuer, subject and claim rules.</p>
    <${Problem} error=${error || action.error} />
    ${issued && html`<${Secret} label=${issued.label} value=${issued.secret} />`}
    ${data === undefined ? !error && html`<${Loading} what="OAuth clients" />` : html`
      ${may('oauth_keys:read') && html`<${Clients} title="OAuth clients" kind="client" clients=${data.oauthClients}
        canChange=${may('oauth_keys')} ...${common} />`}
      ${may('federated_keys:read') && html`<${Clients} title="Federated identities" kind="federated" clients=${data.oauthClients}
        canChange=${may('federated_keys')} ...${common} />`}`}`;
}
