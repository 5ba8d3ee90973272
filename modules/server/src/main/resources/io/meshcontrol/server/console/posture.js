// Device posture integrations: one per provider, the client secret write-only; add, change, remove.
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

const PROVIDERS = [['falcon', 'CrowdStrike Falcon'], ['sentinelone', 'SentinelOne'], ['intune', 'Microsoft Intune'],
  ['jamfpro', 'Jamf Pro'], ['kandji', 'Kandji'], ['kolide', 'Kolide']];
const EMPTY = { provider: 'falcon', cloudId: '', clientId: '', tenantId: '', clientSecret: '' };

export default function PostureIntegrations({ may }) {
  const [data, error, reload] = useLoad(() => get('posture-integration'));
  const [form, setForm] = useState(EMPTY);
  const [secrets, setSecrets] = useState({});
  const action = useAction();
  const canChange = may('feature_settings');
  const change = (call) => action.run(async () => { await call(); reload(); return true; });
  const add = (e) => {
    e.preventDefault();
    change(() => api('POST', 'posture-integration', { provider: form.provider, cloudId: form.cloudId || null,
      clientId: form.clientId || null, tenantId: form.tenantId || null, clientSecret: form.clientSecret }))
      .then((ok) => ok && setForm(EMPTY));
  };
  const input = (name, label, type = 'text') => html`<div><label for=${'posture-' + name}>${label}</label>
    <input id=${'posture-' + name} type=${type} value=${form[name]} required=${name === 'clientSecret'} autocomplete="off"
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  const name = (provider) => (PROVIDERS.find(([p]) => p === provider) || [provider, provider])[1];
  return html`<h1>Device posture integrations</h1>
    <p>Device management and security services the network may ask about its machines.</p>
    <${Problem} error=${error || action.error} />
    ${canChange && html`<form onSubmit=${add} aria-labelledby="posture-new-title"><h2 id="posture-new-title">Add an integration</h2>
      <div class="row">
        <div><label for="posture-provider">Provider</label>
          <select id="posture-provider" value=${form.provider} onChange=${(e) => setForm({ ...form, provider: e.target.value })}>
            ${PROVIDERS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></div>
        ${input('cloudId', 'Cloud ID')}
        ${input('clientId', 'Client ID')}
        ${form.provider === 'intune' && input('tenantId', 'Tenant ID')}
        ${input('clientSecret', 'Client secret', 'password')}
        <button class="primary" type="submit" disabled=${action.busy}>Add integration</button>
      </div></form>`}
    <h2>Integrations</h2>
    ${data === undefined ? !error && html`<${Loading} what="integrations" />`
      : data.integrations.length === 0 ? html`<p class="muted">No integrations.</p>`
      : html`<div class="table-wrap"><table class="responsive" aria-label="Posture integrations">
        <thead><tr><th scope="col">Provider</th><th scope="col">Cloud ID</th><th scope="col">Client ID</th>
          <th scope="col">Changed</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
        <tbody>${data.integrations.map((i) => html`<tr key=${i.id} data-posture=${i.provider}>
          <td data-label="Provider">${name(i.provider)}${i.tenantId && html` <span class="muted">tenant ${i.tenantId}</span>`}</td>
          <td data-label="Cloud ID" class="mono">${i.cloudId}</td>
          <td data-label="Client ID" class="mono">${i.clientId}</td>
          <td data-label="Changed">${when(i.updatedAt)}</td>
          <td>${canChange && html`<form class="row" onSubmit=${(e) => { e.preventDefault();
              change(() => api('PATCH', 'posture-integration/' + i.id, { clientSecret: secrets[i.id] }))
                .then((ok) => ok && setSecrets({ ...secrets, [i.id]: '' })); }}>
              <div><label for=${'posture-secret-' + i.id}>New client secret</label>
                <input id=${'posture-secret-' + i.id} type="password" required autocomplete="off" value=${secrets[i.id] || ''}
                  onInput=${(e) => setSecrets({ ...secrets, [i.id]: e.target.value })} /></div>
              <button type="submit" disabled=${action.busy}>Replace secret</button>
              <button type="button" class="danger" disabled=${action.busy}
                onClick=${() => confirm('Remove the ' + name(i.provider) + ' integration? Its secret is deleted.')
                  && change(() => api('DELETE', 'posture-integration/' + i.id))}>Remove</button></form>`}</td>
        </tr>`)}</tbody></table></div>`}`;
}
