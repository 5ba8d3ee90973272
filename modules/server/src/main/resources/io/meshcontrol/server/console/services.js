// Services: a name of their own (svc:<name>) with addresses the server assigns and keeps, the ports they serve and
// the tags of the machines that host them; create or replace, remove.
import { html, useState } from './vendor/preact-htm.js';
import { api, get } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

/** A service's name in a path: the colon of svc: stays as it is. */
const path = (name) => 'service/' + encodeURIComponent(name).replace('%3A', ':');
const list = (text) => text.split(/[\s,]+/).filter(Boolean);
const EMPTY = { name: '', comment: '', ports: '', tags: '' };

export default function Services({ may }) {
  const [data, error, reload] = useLoad(() => get('service'));
  const [form, setForm] = useState(EMPTY);
  const action = useAction();
  const canChange = may('services');
  const change = (call) => action.run(async () => { await call(); reload(); return true; });
  const save = (e) => {
    e.preventDefault();
    const name = form.name.startsWith('svc:') ? form.name : 'svc:' + form.name;
    change(() => api('PUT', path(name), { comment: form.comment, ports: list(form.ports),
      tags: list(form.tags) })).then((ok) => ok && setForm(EMPTY));
  };
  const input = (name, label, placeholder) => html`<div><label for=${'service-' + name}>${label}</label>
    <input id=${'service-' + name} value=${form[name]} placeholder=${placeholder} required=${name === 'name'}
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  return html`<h1>Services</h1>
    <p>Names with addresses of their own, hosted by the machines that carry one of their tags.</p>
    <${Problem} error=${error || action.error} />
    ${canChange && html`<form onSubmit=${save} aria-labelledby="service-new-title">
      <h2 id="service-new-title">Create or replace a service</h2><div class="row">
      ${input('name', 'Name', 'svc:web')}
      ${input('ports', 'Ports', 'tcp:443, udp:53')}
      ${input('tags', 'Hosted by tags', 'tag:web')}
      ${input('comment', 'Comment', '')}
      <button class="primary" type="submit" disabled=${action.busy}>Save service</button>
    </div></form>`}
    <h2>Services</h2>
    ${data === undefined ? !error && html`<${Loading} what="services" />`
      : data.services.length === 0 ? html`<p class="muted">No services.</p>`
      : html`<div class="table-wrap"><table class="responsive" aria-label="Services">
        <thead><tr><th scope="col">Name</th><th scope="col">Addresses</th><th scope="col">Ports</th>
          <th scope="col">Hosted by</th><th scope="col">Comment</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
        <tbody>${data.services.map((s) => html`<tr key=${s.name} data-service=${s.name}>
          <td data-label="Name" class="mono">${s.name}</td>
          <td data-label="Addresses" class="mono">${s.addresses.join(', ')}</td>
          <td data-label="Ports">${s.ports.map((p) => html`<span class="badge">${p}</span>`)}</td>
          <td data-label="Hosted by">${s.tags.length ? s.tags.map((t) => html`<span class="badge">${t}</span>`) : html`<span class="muted">no machine</span>`}</td>
          <td data-label="Comment">${s.comment}</td>
          <td>${canChange && html`<button type="button" onClick=${() => setForm({ name: s.name, comment: s.comment,
              ports: s.ports.join(', '), tags: s.tags.join(', ') })}>Edit ${s.name}</button>
            <button type="button" class="danger" disabled=${action.busy}
              onClick=${() => confirm('Remove ' + s.name + '? Its addresses are given up and stop answering.')
                && change(() => api('DELETE', path(s.name)))}>Remove</button>`}</td>
        </tr>`)}</tbody></table></div>`}`;
}
