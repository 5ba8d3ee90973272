// Just-in-time access: ask to be in a policy group for a while; an approver (policy_file) approves or denies; a
// granted membership ends by itself at its expiry or when revoked (docs/access-requests.md).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when, relative } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';
import { DurationField, toGo } from './duration.js';

const EMPTY = { user: '', group: '', reason: '', duration: '8 hours' };

function State({ request }) {
  const r = request;
  if (r.state === 'approved') return html`<span class="online">approved</span> by ${r.decidedBy}, ends ${when(r.expiresAt)} (${relative(r.expiresAt)})`;
  if (r.state === 'pending') return html`<span class="waiting">waiting for a decision</span>`;
  if (r.state === 'denied') return html`<span class="bad">denied</span> by ${r.decidedBy}`;
  if (r.state === 'revoked') return html`<span class="muted">revoked</span> by ${r.endedBy} ${when(r.endedAt)}`;
  return html`<span class="muted">${r.state}</span> ${when(r.endedAt)}`;
}

export default function AccessRequests({ may, me }) {
  const [data, error, reload] = useLoad(() => get('access-request'), [], 5000);
  const [form, setForm] = useState(EMPTY);
  const action = useAction();
  const decides = may('policy_file');
  const change = (call) => action.run(async () => { await call(); reload(); return true; });
  const ask = (e) => {
    e.preventDefault();
    change(() => api('POST', 'access-request', { user: form.user || null, group: form.group, reason: form.reason,
      duration: toGo(form.duration) })).then((ok) => ok && setForm(EMPTY));
  };
  const input = (name, label, placeholder, required) => html`<div><label for=${'access-' + name}>${label}</label>
    <input id=${'access-' + name} value=${form[name]} placeholder=${placeholder} required=${required}
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  return html`<h1>Access requests</h1>
    <p>Ask to be in a policy group for a while; someone who may change the policy decides.</p>
    <${Problem} error=${error || action.error} />
    <form onSubmit=${ask} aria-labelledby="access-new-title"><h2 id="access-new-title">Ask for access</h2><div class="row">
      ${decides && input('user', 'For user (empty: ' + (me.user || 'yourself') + ')', '')}
      ${input('group', 'Group', 'group:oncall', true)}
      ${input('reason', 'Reason', 'incident 42', true)}
      <${DurationField} id="access-duration" label="For how long" value=${form.duration} required=${true}
        presets=${['1 hour', '8 hours', '1 day', '7 days']} onChange=${(duration) => setForm({ ...form, duration })} />
      <button class="primary" type="submit" disabled=${action.busy}>Ask</button>
    </div></form>
    <h2>Requests</h2>
    ${data === undefined ? !error && html`<${Loading} what="access requests" />`
      : data.accessRequests.length === 0 ? html`<p class="muted">No access requests.</p>`
      : html`<div class="table-wrap"><table class="responsive" aria-label="Access requests">
        <thead><tr><th scope="col">User</th><th scope="col">Group</th><th scope="col">Reason</th><th scope="col">For</th>
          <th scope="col">Asked</th><th scope="col">State</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
        <tbody>${[...data.accessRequests].sort((a, b) => Number(b.id) - Number(a.id)).map((r) => html`<tr key=${r.id}
            data-access-request=${r.id} data-state=${r.state}>
          <td data-label="User">${r.user}</td>
          <td data-label="Group" class="mono">${r.group}</td>
          <td data-label="Reason">${r.reason}</td>
          <td data-label="For">${r.duration}</td>
          <td data-label="Asked">${when(r.createdAt)} by ${r.requestedBy}</td>
          <td data-label="State"><${State} request=${r} /></td>
          <td>${decides && r.state === 'pending' && html`<button type="button" class="primary" disabled=${action.busy}
              onClick=${() => confirm('Approve: ' + r.user + ' joins ' + r.group + ' for ' + r.duration + '?')
                && change(() => api('POST', 'access-request/' + r.id + '/approve'))}>Approve</button>
            <button type="button" class="danger" disabled=${action.busy}
              onClick=${() => change(() => api('POST', 'access-request/' + r.id + '/deny'))}>Deny</button>`}
            ${decides && r.state === 'approved' && html`<button type="button" class="danger" disabled=${action.busy}
              onClick=${() => confirm('Revoke: ' + r.user + ' leaves ' + r.group + ' now?')
                && change(() => api('POST', 'access-request/' + r.id + '/revoke'))}>Revoke</button>`}</td>
        </tr>`)}</tbody></table></div>`}`;
}
