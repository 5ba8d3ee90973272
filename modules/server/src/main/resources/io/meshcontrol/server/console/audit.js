// The audit log: filter by actor, action (a prefix such as "apikey." takes all of its kind), target and time; older
// pages; the entries the filter finds downloaded as JSON Lines (one entry per line, as the API answers it).
import { html, useState, useEffect } from './vendor/preact-htm.js';
import { get, when } from './api.js';
import { useAction, Problem, Loading } from './ui.js';

const FIELDS = ['actor', 'action', 'target'];
const EMPTY = { actor: '', action: '', target: '', since: '', until: '' };

/** The query of a filter: datetime-local fields are local times, sent as RFC 3339 instants. */
function query(filter, before, limit) {
  const q = new URLSearchParams();
  for (const name of FIELDS) if (filter[name].trim()) q.set(name, filter[name].trim());
  for (const name of ['since', 'until']) if (filter[name]) q.set(name, new Date(filter[name]).toISOString());
  if (before) q.set('before', before);
  if (limit) q.set('limit', limit);
  return 'audit?' + q;
}

/** Every entry the filter finds, newest first, page by page. */
async function everything(filter) {
  const entries = [];
  let before = null;
  do {
    const page = await get(query(filter, before, 1000));
    entries.push(...page.entries);
    before = page.next;
  } while (before);
  return entries;
}

function save(entries) {
  const text = entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : '');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
  link.download = 'audit-' + new Date().toISOString().replace(/[:.]/g, '-') + '.jsonl';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

export default function Audit() {
  const [form, setForm] = useState(EMPTY);
  const [shown, setShown] = useState(null); // { filter, entries, next }
  const action = useAction();
  const load = (filter, before) => action.run(async () => {
    const page = await get(query(filter, before));
    setShown((old) => ({ filter, entries: before && old ? [...old.entries, ...page.entries] : page.entries, next: page.next }));
  });
  useEffect(() => { load(EMPTY, null); }, []);
  const search = (e) => { e.preventDefault(); load(form, null); };
  const field = (name, label, type = 'text', placeholder = '') => html`<div><label for=${'audit-' + name}>${label}</label>
    <input id=${'audit-' + name} type=${type} value=${form[name]} placeholder=${placeholder}
      onInput=${(e) => setForm({ ...form, [name]: e.target.value })} /></div>`;
  return html`<h1>Audit log</h1>
    <p>Every change to the network, newest first: who did it, from where, and what changed.</p>
    <form onSubmit=${search} aria-label="Filter the audit log"><div class="row">
      ${field('actor', 'Actor', 'text', 'apikey:3')}
      ${field('action', 'Action (or its start)', 'text', 'apikey.')}
      ${field('target', 'Target')}
      ${field('since', 'Since', 'datetime-local')}
      ${field('until', 'Until', 'datetime-local')}
      <button class="primary" type="submit" disabled=${action.busy}>Filter</button>
      <button type="button" disabled=${action.busy} onClick=${() => { setForm(EMPTY); load(EMPTY, null); }}>Clear</button>
      <button type="button" disabled=${action.busy || !shown}
        onClick=${() => action.run(async () => save(await everything(shown.filter)))}>Download JSON Lines</button>
    </div></form>
    <${Problem} error=${action.error} />
    ${shown === null ? !action.error && html`<${Loading} what="the audit log" />` : html`
      <p aria-live="polite" data-audit-count=${shown.entries.length}>${shown.entries.length} entries shown${shown.next ? ', older ones follow' : ''}.</p>
      <div class="table-wrap"><table class="responsive" aria-label="Audit entries">
        <thead><tr><th scope="col">Time</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th>
          <th scope="col">Details</th></tr></thead>
        <tbody>${shown.entries.map((e) => html`<tr key=${e.id} data-audit=${e.action}>
          <td data-label="Time">${when(e.time)}</td>
          <td data-label="Actor"><span class="mono">${e.actor}</span>${e.source && html` <span class="muted">from ${e.source}</span>`}</td>
          <td data-label="Action" class="mono">${e.action}</td>
          <td data-label="Target" class="mono">${e.target}</td>
          <td data-label="Details">${Object.entries(e.details || {}).map(([k, v]) => html`<div><span class="muted">${k}</span> ${v}</div>`)}</td>
        </tr>`)}</tbody></table></div>
      ${shown.next && html`<div class="actions"><button type="button" disabled=${action.busy}
        onClick=${() => load(shown.filter, shown.next)}>Older entries</button></div>`}`}`;
}
