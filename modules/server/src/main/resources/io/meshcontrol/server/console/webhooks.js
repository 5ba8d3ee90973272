// Webhooks: endpoints (create with URL, provider and events; test; rotate, the secret shown once; delete) and each
// endpoint's delivery history, newest first.
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading, Secret } from './ui.js';

const PROVIDERS = [['', 'Signed JSON (no provider)'], ['slack', 'Slack'], ['mattermost', 'Mattermost'],
  ['googlechat', 'Google Chat'], ['teams', 'Microsoft Teams'], ['discord', 'Discord'], ['telegram', 'Telegram'],
  ['ntfy', 'ntfy'], ['email', 'E-mail (mailto:)']];

function Deliveries({ hook }) {
  const [data, error, reload] = useLoad(() => get('webhook/' + encodeURIComponent(hook.id) + '/deliveries'), [hook.id],
    (digest) => digest.areas.includes('webhook'));
  const label = 'Deliveries to ' + hook.url;
  return html`<section aria-label=${label} data-deliveries=${hook.id}>
    <h3>Deliveries <button type="button" class="link" onClick=${reload}>Refresh</button></h3>
    <${Problem} error=${error} />
    ${data === undefined ? !error && html`<${Loading} what="deliveries" />`
      : data.deliveries.length === 0 ? html`<p class="muted">No deliveries yet.</p>`
      : html`<div class="table-wrap"><table class="responsive" aria-label=${label}>
        <thead><tr><th scope="col">Finished</th><th scope="col">Events</th><th scope="col">Status</th>
          <th scope="col">Attempts</th><th scope="col">Duration</th></tr></thead>
        <tbody>${[...data.deliveries].sort((a, b) => b.id - a.id).map((d) => html`<tr key=${d.id} data-delivery=${d.id}>
          <td data-label="Finished">${when(d.finishedAt)}</td>
          <td data-label="Events">${d.eventTypes.map((t) => html`<span class="badge">${t}</span>`)}</td>
          <td data-label="Status">${d.error ? html`<span class="bad">${d.status || 'no answer'}: ${d.error}</span>`
            : html`<span class="online">${d.status}</span>`}</td>
          <td data-label="Attempts">${d.attempts}</td>
          <td data-label="Duration">${d.durationMs} ms</td>
        </tr>`)}</tbody></table></div>`}
  </section>`;
}

function Endpoint({ hook, canChange, action, onIssued, onChange }) {
  const [open, setOpen] = useState(false);
  const run = (call) => action.run(async () => { await call(); onChange(); });
  return html`<li class="card" data-webhook=${hook.url}>
    <p><strong class="mono">${hook.url}</strong> <span class="badge">${hook.provider || 'signed JSON'}</span></p>
    <p>${hook.subscriptions.length ? hook.subscriptions.map((s) => html`<span class="badge">${s}</span>`)
      : html`<span class="muted">no events</span>`}</p>
    <p class="muted">Created ${when(hook.createdAt)} by ${hook.creator}</p>
    <div class="actions">
      <button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}>
        ${open ? 'Hide deliveries' : 'Show deliveries'}</button>
      ${canChange && html`<button type="button" disabled=${action.busy}
          onClick=${() => run(() => api('POST', 'webhook/' + hook.id + '/test')).then(() => setOpen(true))}>Send test event</button>
        <button type="button" disabled=${action.busy}
          onClick=${() => confirm('Rotate the secret of ' + hook.url + '? The old secret stops signing at once; '
            + 'the receiver needs the new one.') && action.run(async () => {
            const answer = await api('POST', 'webhook/' + hook.id + '/rotate');
            onIssued('The new signing secret of ' + hook.url + '.', answer.body.secret);
          })}>Rotate secret</button>
        <button type="button" class="danger" disabled=${action.busy}
          onClick=${() => confirm('Delete the webhook ' + hook.url + '? No more events are sent to it.')
            && run(() => api('DELETE', 'webhook/' + hook.id))}>Delete</button>`}
    </div>
    ${open && html`<${Deliveries} hook=${hook} />`}
  </li>`;
}

export default function Webhooks({ may }) {
  const [data, error, reload] = useLoad(() => Promise.all([get('webhook'), get('webhook/event-types')])
    .then(([hooks, types]) => ({ hooks: hooks.webhooks, types: types.eventTypes })));
  const [form, setForm] = useState({ url: '', provider: '', events: [] });
  const [issued, setIssued] = useState(null);
  const action = useAction();
  const canChange = may('webhooks');
  const create = (e) => {
    e.preventDefault();
    action.run(async () => {
      const answer = await api('POST', 'webhook', { url: form.url, provider: form.provider || null, subscriptions: form.events });
      setIssued({ label: 'The signing secret of ' + form.url + '.', secret: answer.body.secret });
      setForm({ url: '', provider: '', events: [] });
      reload();
    });
  };
  const toggle = (type) => setForm({ ...form, events: form.events.includes(type)
    ? form.events.filter((t) => t !== type) : [...form.events, type] });
  return html`<h1>Webhooks</h1>
    <p>Events of the network sent to a URL as they happen (docs/events.md).</p>
    <${Problem} error=${error || action.error} />
    ${issued && html`<${Secret} label=${issued.label} value=${issued.secret} />`}
    ${data === undefined ? !error && html`<${Loading} what="webhooks" />` : html`
      ${canChange && html`<form onSubmit=${create} aria-labelledby="webhook-new-title">
        <h2 id="webhook-new-title">New webhook</h2>
        <div class="row">
          <div><label for="webhook-url">URL</label>
            <input id="webhook-url" required size="40" value=${form.url} placeholder="https://hooks.example.com/mesh"
              onInput=${(e) => setForm({ ...form, url: e.target.value })} /></div>
          <div><label for="webhook-provider">Format</label>
            <select id="webhook-provider" value=${form.provider} onChange=${(e) => setForm({ ...form, provider: e.target.value })}>
              ${PROVIDERS.map(([value, name]) => html`<option value=${value}>${name}</option>`)}</select></div>
        </div>
        <fieldset class="choice"><legend>Events</legend>
          <div class="checks">${data.types.map((type) => html`<label class="inline">
            <input type="checkbox" name="events" value=${type} checked=${form.events.includes(type)}
              onChange=${() => toggle(type)} /> ${type}</label>`)}</div></fieldset>
        <div class="actions"><button class="primary" type="submit" disabled=${action.busy}>Create webhook</button></div>
      </form>`}
      <h2>Endpoints</h2>
      ${data.hooks.length === 0 ? html`<p class="muted">No webhooks.</p>` : html`<ul class="cards">
        ${data.hooks.map((hook) => html`<${Endpoint} key=${hook.id} hook=${hook} canChange=${canChange} action=${action}
          onIssued=${(label, secret) => setIssued({ label, secret })} onChange=${reload} />`)}</ul>`}`}`;
}
