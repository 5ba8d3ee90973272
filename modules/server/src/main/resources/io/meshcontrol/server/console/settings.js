// Settings: the network (its ID, device and user approval, key duration), the relay settings and relays of your own
// (changed here with networking_settings), and the latency report.
import { html, useState, useEffect } from './vendor/preact-htm.js';
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

/** The relay settings as the form edits them: map URLs one per line. */
const relayDraft = (derp) => ({ ...derp, urls: derp.urls.join('\n') });

function RelaySettings({ derp, put, busy }) {
  const [draft, setDraft] = useState(() => relayDraft(derp));
  useEffect(() => { setDraft(relayDraft(derp)); }, [derp]);
  const set = (field) => (e) => setDraft({ ...draft, [field]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const save = (e) => {
    e.preventDefault();
    put({ ...draft, urls: draft.urls.split(/\s+/).filter(Boolean) }, 'Relay settings saved.');
  };
  return html`<form onSubmit=${save} data-relay-settings aria-labelledby="relay-settings-title">
    <h3 id="relay-settings-title">Relay settings</h3>
    <label class="inline"><input id="relay-enabled" type="checkbox" checked=${draft.relayEnabled} onChange=${set('relayEnabled')} />
      Run the embedded relay (region 999)</label>
    <label class="inline"><input id="relay-verify" type="checkbox" checked=${draft.verifyClients} onChange=${set('verifyClients')} />
      Only this network's machines may use it</label>
    <div class="row">
      <div><label for="relay-ipv4">Published IPv4 (empty: clients resolve the host)</label>
        <input id="relay-ipv4" class="mono" value=${draft.ipv4} onInput=${set('ipv4')} /></div>
      <div><label for="relay-ipv6">Published IPv6</label>
        <input id="relay-ipv6" class="mono" value=${draft.ipv6} onInput=${set('ipv6')} /></div>
    </div>
    <label class="inline"><input id="stun-enabled" type="checkbox" checked=${draft.stunEnabled} onChange=${set('stunEnabled')} />
      Answer STUN${derp.stunUnavailable && html` <span class="bad">(not answering: ${derp.stunUnavailable})</span>`}</label>
    <div class="row"><div><label for="stun-addr">STUN address (UDP host:port)</label>
      <input id="stun-addr" class="mono" value=${draft.stunListenAddr} onInput=${set('stunListenAddr')} /></div></div>
    <label for="derp-urls">DERP map URLs, one per line, merged in order (none: only this server's relays)</label>
    <textarea id="derp-urls" class="mono" rows="3" cols="60" value=${draft.urls} onInput=${set('urls')}></textarea>
    <div class="row">
      <label class="inline"><input id="derp-auto-update" type="checkbox" checked=${draft.autoUpdate} onChange=${set('autoUpdate')} />
        Fetch them again every</label>
      <input id="derp-frequency" size="6" aria-label="Fetch interval, such as 24h" value=${draft.updateFrequency}
        onInput=${set('updateFrequency')} />
    </div>
    <div class="actions"><button class="primary" type="submit" disabled=${busy}>Save relay settings</button></div>
  </form>`;
}

function CustomRelays({ derp, put, busy, canChange }) {
  const empty = { regionId: '', code: '', host: '', ipv4: '' };
  const [form, setForm] = useState(empty);
  const set = (field) => (e) => setForm({ ...form, [field]: e.target.value });
  const add = (e) => {
    e.preventDefault();
    const relay = { regionId: Number(form.regionId), code: form.code.trim(), host: form.host.trim(), ipv4: form.ipv4.trim() || null };
    put({ ...derp, relays: [...derp.relays, relay] }, 'Relay ' + relay.code + ' added.').then((ok) => ok && setForm(empty));
  };
  const remove = (relay) => put({ ...derp, relays: derp.relays.filter((r) => r.regionId !== relay.regionId) },
    'Relay ' + relay.code + ' removed.');
  return html`<h3 id="custom-relays-title">Relays of your own</h3>
    <p class="muted">Relays run elsewhere, each published to the machines as a region of its own.</p>
    ${derp.relays.length > 0 ? html`<div class="table-wrap"><table class="responsive" aria-labelledby="custom-relays-title">
      <thead><tr><th scope="col">Region</th><th scope="col">Code</th><th scope="col">Host</th><th scope="col">IPv4</th>
        ${canChange && html`<th scope="col"><span class="skip">Actions</span></th>`}</tr></thead>
      <tbody>${derp.relays.map((r) => html`<tr key=${r.regionId} data-relay=${r.code}><td data-label="Region">${r.regionId}</td>
        <td data-label="Code">${r.code}</td><td data-label="Host" class="mono">${r.host}</td>
        <td data-label="IPv4" class="mono">${r.ipv4 || ''}</td>
        ${canChange && html`<td><button type="button" class="danger" disabled=${busy} onClick=${() => confirm('Remove relay ' + r.code + '? Machines whose home it is move to another region.') && remove(r)}>
          Remove relay ${r.code}</button></td>`}</tr>`)}</tbody>
    </table></div>` : html`<p class="muted">None.</p>`}
    ${canChange && html`<form onSubmit=${add} aria-label="Add a relay"><div class="row">
      <div><label for="relay-region">Region id</label>
        <input id="relay-region" type="number" min="1" size="5" required value=${form.regionId} onInput=${set('regionId')} /></div>
      <div><label for="relay-code">Code</label>
        <input id="relay-code" size="8" required value=${form.code} onInput=${set('code')} /></div>
      <div><label for="relay-host">Host</label>
        <input id="relay-host" class="mono" required value=${form.host} onInput=${set('host')} /></div>
      <div><label for="relay-ipv4-address">IPv4 (optional)</label>
        <input id="relay-ipv4-address" class="mono" size="15" value=${form.ipv4} onInput=${set('ipv4')} /></div>
      <button type="submit" disabled=${busy}>Add relay</button>
    </div></form>`}`;
}

function RelayFacts({ derp }) {
  return html`<dl class="facts" data-relay-settings>
    <dt>Embedded relay</dt><dd>${derp.relayEnabled ? 'on' : 'off'}${derp.relayEnabled && (derp.verifyClients ? ', only this network\'s machines' : ', open to any client')}</dd>
    <dt>STUN</dt><dd>${derp.stunEnabled ? 'on, ' + derp.stunListenAddr : 'off'}${derp.stunUnavailable && html` <span class="bad">(${derp.stunUnavailable})</span>`}</dd>
    <dt>Map URLs</dt><dd class="mono">${derp.urls.length ? derp.urls.join(', ') : 'none: only own relays'}</dd>
    <dt>Refresh</dt><dd>${derp.autoUpdate ? 'every ' + derp.updateFrequency : 'off'}</dd>
  </dl>`;
}

function Relays({ may }) {
  const [loaded, error, reload] = useLoad(() => api('GET', 'derp'));
  const [done, setDone] = useState(null);
  const action = useAction();
  const canChange = may('networking_settings');
  if (loaded === undefined) return html`<${Problem} error=${error} />${!error && html`<${Loading} what="relay settings" />`}`;
  const derp = loaded.body;
  // Every change writes the whole settings, only if they are still the ones shown (If-Match): nothing is overwritten.
  const put = (settings, message) => {
    setDone(null);
    return action.run(async () => {
      try {
        await api('PUT', 'derp', { ...settings, stunUnavailable: undefined }, { 'If-Match': loaded.etag });
      } catch (e) {
        if (e.status === 412) {
          throw new Error('Someone changed the relay settings after this page read them; nothing was saved. '
            + 'Reload the page to see their change.');
        }
        throw e;
      }
      setDone(message);
      reload();
      return true;
    });
  };
  return html`<section aria-labelledby="relays-title"><h2 id="relays-title">Relays (DERP)</h2>
    ${canChange ? html`<p class="muted">Changes reach connected machines at once (docs/relay.md).</p>`
      : html`<p>Your role may read the relay settings but not change them.</p>`}
    <${Problem} error=${error || action.error} />
    ${done && !action.error && html`<div class="notice ok" role="status">${done}</div>`}
    ${canChange ? html`<${RelaySettings} derp=${derp} put=${put} busy=${action.busy} />` : html`<${RelayFacts} derp=${derp} />`}
    <${CustomRelays} derp=${derp} put=${put} busy=${action.busy} canChange=${canChange} />
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
    ${may('networking_settings:read') && html`<${Relays} may=${may} />`}
    ${may('devices:core:read') && html`<${Latency} />`}`;
}
