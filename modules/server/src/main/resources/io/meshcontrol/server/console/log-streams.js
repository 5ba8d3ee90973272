// Log streaming: the audit log sent to one destination as entries are written; its delivery status; stop it
// (docs/events.md, "Audit log and log streaming").
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when, ApiError } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

const DESTINATIONS = ['http', 'splunk', 'elastic', 'datadog', 'axiom', 'loki'];
const PATH = 'log-stream/configuration';

/** The stream and its status, or null when none is configured (404). */
const load = () => Promise.all([get(PATH), get(PATH + '/status')]).then(([stream, status]) => ({ stream, status }),
  (e) => { if (e instanceof ApiError && e.status === 404) return null; throw e; });

export default function LogStreams({ may }) {
  const [data, error, reload] = useLoad(load, [], 5000);
  const [form, setForm] = useState({ destinationType: 'http', url: '', user: '', token: '' });
  const action = useAction();
  const canChange = may('log_streaming');
  const save = (e) => {
    e.preventDefault();
    action.run(async () => {
      await api('PUT', PATH, { destinationType: form.destinationType, url: form.url, user: form.user || null,
        token: form.token || null });
      setForm({ ...form, token: '' });
      reload();
    });
  };
  const input = (name, label, type = 'text', placeholder = '') => html`<div><label for=${'stream-' + name}>${label}</label>
    <input id=${'stream-' + name} type=${type} value=${form[name]} placeholder=${placeholder} required=${name === 'url'}
      autocomplete="off" onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  return html`<h1>Log streaming</h1>
    <p>The audit log, sent to a log service as entries are written. Network flow logs are not collected by this server.</p>
    <${Problem} error=${error || action.error} />
    ${data === undefined ? !error && html`<${Loading} what="the log stream" />` : data === null
      ? html`<p data-stream="none">The audit log is not streamed anywhere.</p>`
      : html`<section aria-labelledby="stream-title" data-stream=${data.stream.destinationType}>
        <h2 id="stream-title">Streaming to ${data.stream.destinationType}</h2>
        <dl class="facts">
          <dt>URL</dt><dd class="mono">${data.stream.url}</dd>
          ${data.stream.user && html`<dt>User</dt><dd>${data.stream.user}</dd>`}
          <dt>Since</dt><dd>${when(data.stream.updatedAt)}</dd>
          <dt>Entries sent</dt><dd data-entries-sent>${data.status.entriesSent} (${data.status.bytesSent} bytes)</dd>
          <dt>Requests</dt><dd>${data.status.requests}, ${data.status.failedRequests} failed</dd>
          <dt>Last success</dt><dd>${when(data.status.lastActivity) || html`<span class="muted">none yet</span>`}</dd>
          ${data.status.lastError && html`<dt>Last error</dt><dd class="bad">${data.status.lastError}</dd>`}
        </dl>
        ${canChange && html`<div class="actions"><button type="button" class="danger" disabled=${action.busy}
          onClick=${() => confirm('Stop streaming the audit log to ' + data.stream.url + '? Entries written from now on are not sent.')
            && action.run(async () => { await api('DELETE', PATH); reload(); })}>Stop streaming</button></div>`}
      </section>`}
    ${canChange && html`<form onSubmit=${save} aria-labelledby="stream-set-title">
      <h2 id="stream-set-title">${data ? 'Change the destination' : 'Stream the audit log'}</h2>
      <div class="row">
        <div><label for="stream-destinationType">Destination</label>
          <select id="stream-destinationType" value=${form.destinationType}
            onChange=${(e) => setForm({ ...form, destinationType: e.target.value })}>
            ${DESTINATIONS.map((d) => html`<option value=${d}>${d}</option>`)}</select></div>
        ${input('url', 'URL', 'url', 'https://logs.example.com/ingest')}
        ${input('user', 'User (elastic, loki)')}
        ${input('token', 'Token (shown never again)', 'password')}
        <button class="primary" type="submit" disabled=${action.busy}>Save</button>
      </div></form>`}`;
}
