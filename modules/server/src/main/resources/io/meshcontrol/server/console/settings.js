// Settings: the network (its ID, device and user approval, key duration), the relay settings and latency report.
import { html, useState } from './vendor/preact-htm.js';
import { api, get } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

function Network({ may }) {
  const [server] = useLoad(() => get('server'));
  const [settings, error, reload] = useLoad(() => get('settings'));
  const [days, setDays] = useState(null);
  const action = useAction();
  const canChange = may('feature_settings');
  const patch = (body) => action.run(async () => { await api('PATCH', 'settings', body); reload(); });
  if (settings === undefined) return html`<${Problem} error=${error} />${!error && html`<${Loading} what="settings" />`}`;
  return html`<section aria-labelledby="network-title"><h2 id="network-title">Network</h2>
    <${Problem} error=${error || action.error} />
    <dl class="facts">
      <dt>Network ID</dt><dd class="mono" data-tailnet-id>${server && server.tailnetId}</dd>
      <dt>Server URL</dt><dd class="mono">${server && server.serverUrl}</dd>
      <dt>Base domain</dt><dd class="mono">${server && server.baseDomain}</dd>
      <dt>Version</dt><dd>${server && server.version}</dd>
    </dl>
    <label class="inline"><input type="checkbox" checked=${settings.devicesApprovalOn} disabled=${!canChange || action.busy}
      onChange=${(e) => patch({ devicesApprovalOn: e.target.checked })} /> Device approval: new machines wait for an administrator</label>
    <label class="inline"><input type="checkbox" checked=${settings.usersApprovalOn} disabled=${!canChange || action.busy}
      onChange=${(e) => patch({ usersApprovalOn: e.target.checked })} /> User approval: people logging in for the first time wait</label>
    <form class="row" onSubmit=${(e) => { e.preventDefault(); patch({ devicesKeyDurationDays: Number(days) }); }}>
      <div><label for="key-days">Machine key duration (days, 0: server default)</label>
        <input id="key-days" type="number" min="0" max="180" disabled=${!canChange}
          value=${days === null ? settings.devicesKeyDurationDays || 0 : days} onInput=${(e) => setDays(e.target.value)} /></div>
      ${canChange && html`<button type="submit" disabled=${action.busy || days === null}>Set duration</button>`}
    </form>
  </section>`;
}

function Relays() {
  const [derp, error] = useLoad(() => get('derp'));
  if (derp === undefined) return html`<${Problem} error=${error} />${!error && html`<${Loading} what="relay settings" />`}`;
  return html`<section aria-labelledby="relays-title"><h2 id="relays-title">Relays (DERP)</h2>
    <p class="muted">Changed with <code>svc derp</code> (docs/relay.md).</p>
    <dl class="facts" data-relay-settings>
      <dt>Embedded relay</dt><dd>${derp.relayEnabled ? 'on' : 'off'}${derp.relayEnabled && (derp.verifyClients ? ', only this network\'s machines' : ', open to any client')}</dd>
      <dt>STUN</dt><dd>${derp.stunEnabled ? 'on, ' + derp.stunListenAddr : 'off'}${derp.stunUnavailable && html` <span class="bad">(${derp.stunUnavailable})</span>`}</dd>
      <dt>Map URLs</dt><dd class="mono">${derp.urls.length ? derp.urls.join(', ') : 'none: only own relays'}</dd>
      <dt>Refresh</dt><dd>${derp.autoUpdate ? 'every ' + derp.updateFrequency : 'off'}</dd>
    </dl>
    ${derp.relays.length > 0 && html`<div class="table-wrap"><table class="responsive">
      <thead><tr><th scope="col">Region</th><th scope="col">Code</th><th scope="col">Host</th></tr></thead>
      <tbody>${derp.relays.map((r) => html`<tr key=${r.regionId + r.host}><td data-label="Region">${r.regionId}</td>
        <td data-label="Code">${r.code}</td><td data-label="Host" class="mono">${r.host}</td></tr>`)}</tbody>
    </table></div>`}
  </section>`;
}

function Latency() {
  const [report, error] = useLoad(() => get('derp/latency'), [], 10000);
  const rows = report ? report.regions : [];
  return html`<section aria-labelledby="latency-title"><h2 id="latency-title">Relay latency</h2>
    <p>As the machines report it: how many have each region as home, and the measured round trips.</p>
    <${Problem} error=${error} />
    ${report === undefined ? html`<${Loading} what="the latency report" />` : html`<div class="table-wrap"><table class="responsive">
      <thead><tr><th scope="col">Region</th><th scope="col">Home of</th><th scope="col">Measured by</th>
        <th scope="col">Median ms</th><th scope="col">90th percentile ms</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.regionId}>
        <td data-label="Region">${r.regionId} ${r.code || r.name || ''}</td>
        <td data-label="Home of">${r.preferredBy}</td>
        <td data-label="Measured by">${r.reporting}</td>
        <td data-label="Median ms">${r.medianMs ?? '–'}</td>
        <td data-label="90th percentile ms">${r.p90Ms ?? '–'}</td></tr>`)}</tbody></table></div>`}
  </section>`;
}

export default function Settings({ may }) {
  return html`<h1>Settings</h1>
    <${Network} may=${may} />
    ${may('networking_settings:read') && html`<${Relays} />`}
    ${may('devices:core:read') && html`<${Latency} />`}`;
}
