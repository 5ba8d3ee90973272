// DNS: MagicDNS and the base domain (the configuration file's, shown), nameservers, split DNS, search paths.
import { html, useState, useEffect } from './vendor/preact-htm.js';
import { api, get } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

const words = (text) => text.split(/[\s,]+/).filter(Boolean);

/** The field a refusal names (`nameservers[2]: …`, `splitDns["corp.example"][0]: …`, `searchPaths[1]: …`), to mark it. */
function badField(error) {
  const text = (error && error.message) || '';
  let m = /^nameservers\[(\d+)\]/.exec(text);
  if (m) return 'nameserver-' + m[1];
  m = /^splitDns\["(.*?)"\]/.exec(text) || /^splitDns: invalid domain "(.*)"/.exec(text);
  if (m) return 'split:' + m[1];
  return /^searchPaths\[/.test(text) ? 'search-paths' : null;
}

/** The form's state from the server's answer; split DNS resolvers as text, their exit-node flags kept aside. */
function draftOf(dns) {
  return {
    overrideLocalDns: dns.overrideLocalDns,
    nameservers: dns.nameservers.map((n) => ({ ...n })),
    split: Object.entries(dns.splitDns).map(([domain, servers]) => ({
      domain, servers: servers.map((s) => s.address).join(', '), kept: servers,
    })),
    searchPaths: dns.searchPaths.join(', '),
  };
}

/** The PUT body: every list whole, so what the form shows is exactly what is saved. */
function bodyOf(draft) {
  const splitDns = {};
  for (const route of draft.split) {
    splitDns[route.domain.trim()] = words(route.servers).map((address) => ({
      address, useWithExitNode: (route.kept || []).some((k) => k.address === address && k.useWithExitNode),
    }));
  }
  return {
    overrideLocalDns: draft.overrideLocalDns,
    nameservers: draft.nameservers.map((n) => ({ address: n.address.trim(), useWithExitNode: n.useWithExitNode })),
    splitDns,
    searchPaths: words(draft.searchPaths),
  };
}

function Names({ dns }) {
  return html`<section aria-labelledby="names-title"><h2 id="names-title">Machine names (MagicDNS)</h2>
    <dl class="facts" data-magic-dns=${dns.magicDns ? 'on' : 'off'}>
      <dt>MagicDNS</dt><dd>${dns.magicDns ? 'on: machines reach each other by name' : 'off'}</dd>
      <dt>Base domain</dt><dd class="mono">${dns.baseDomain}</dd>
    </dl>
    <p class="muted">Both are set in the server's configuration file (<code>dns.magic_dns</code>, <code>dns.base_domain</code>) and take effect when it restarts; they cannot be changed here.</p>
    <p class="muted">The resolvers below start as the configuration file's (<code>dns.nameservers.*</code>, <code>dns.search_domains</code>, <code>dns.override_local_dns</code>); once they are saved here or through the API, the saved ones apply and the file's are no longer read.</p>
  </section>`;
}

function ReadOnly({ dns }) {
  const split = Object.entries(dns.splitDns);
  const list = (servers) => servers.map((n) => html`<span class="badge mono">${n.address}${n.useWithExitNode ? ' (also with an exit node)' : ''}</span>`);
  return html`<section aria-labelledby="resolvers-title" data-dns-read-only><h2 id="resolvers-title">Resolvers</h2>
    <dl class="facts">
      <dt>Nameservers</dt><dd data-nameservers>${dns.nameservers.length ? list(dns.nameservers) : html`<span class="muted">none: machines use their own</span>`}</dd>
      <dt>Machines' own DNS</dt><dd>${dns.overrideLocalDns ? 'replaced by these nameservers' : 'kept'}</dd>
      <dt>Search paths</dt><dd class="mono" data-search-paths>${dns.searchPaths.join(', ') || html`<span class="muted">none</span>`}</dd>
    </dl>
    <h2 id="split-title">Split DNS</h2>
    ${split.length ? html`<div class="table-wrap"><table class="responsive" aria-labelledby="split-title">
      <thead><tr><th scope="col">Domain</th><th scope="col">Nameservers</th></tr></thead>
      <tbody>${split.map(([domain, servers]) => html`<tr key=${domain} data-split=${domain}>
        <td data-label="Domain" class="mono">${domain}</td><td data-label="Nameservers">${list(servers)}</td></tr>`)}</tbody>
    </table></div>` : html`<p class="muted">No split DNS.</p>`}
  </section>`;
}

function Editor({ dns, reload }) {
  const [draft, setDraft] = useState(() => draftOf(dns));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => { setDraft(draftOf(dns)); }, [dns]);
  const change = (next) => { setSaved(false); setDraft(next); };
  const setNameserver = (i, field, value) => change({ ...draft,
    nameservers: draft.nameservers.map((n, j) => (i === j ? { ...n, [field]: value } : n)) });
  const setRoute = (i, field, value) => change({ ...draft,
    split: draft.split.map((r, j) => (i === j ? { ...r, [field]: value } : r)) });
  const bad = badField(action.error);
  const invalid = (id) => (bad === id ? 'true' : undefined);
  const save = (event) => {
    event.preventDefault();
    action.run(async () => {
      await api('PUT', 'dns', bodyOf(draft));
      setSaved(true);
      reload();
    });
  };
  return html`<form onSubmit=${save} aria-labelledby="resolvers-title">
    <h2 id="resolvers-title">Nameservers</h2>
    <p class="muted">IP addresses or <code>https://</code> DNS-over-HTTPS URLs, tried in this order.</p>
    <div class="table-wrap"><table class="responsive">
      <thead><tr><th scope="col">Address</th><th scope="col">With an exit node</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
      <tbody>${draft.nameservers.map((n, i) => html`<tr key=${'ns' + i}>
        <td data-label="Address"><input id=${'nameserver-' + i} class="mono" aria-label=${'Nameserver ' + (i + 1)}
          aria-invalid=${invalid('nameserver-' + i)} value=${n.address} onInput=${(e) => setNameserver(i, 'address', e.target.value)} /></td>
        <td data-label="With an exit node"><label class="inline"><input type="checkbox" checked=${n.useWithExitNode}
          onChange=${(e) => setNameserver(i, 'useWithExitNode', e.target.checked)} /> keep using it</label></td>
        <td><button type="button" onClick=${() => change({ ...draft, nameservers: draft.nameservers.filter((_, j) => j !== i) })}>
          Remove nameserver ${i + 1}</button></td></tr>`)}</tbody>
    </table></div>
    <div class="actions"><button type="button" onClick=${() => change({ ...draft,
      nameservers: [...draft.nameservers, { address: '', useWithExitNode: false }] })}>Add nameserver</button></div>
    <label class="inline"><input id="override-local-dns" type="checkbox" checked=${draft.overrideLocalDns}
      onChange=${(e) => change({ ...draft, overrideLocalDns: e.target.checked })} />
      Override the machines' own DNS settings (otherwise these nameservers are only fallbacks)</label>

    <h2 id="split-title">Split DNS</h2>
    <p class="muted">Names under a domain go to its own nameservers (several separated by commas).</p>
    <div class="table-wrap"><table class="responsive" aria-labelledby="split-title">
      <thead><tr><th scope="col">Domain</th><th scope="col">Nameservers</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
      <tbody>${draft.split.map((r, i) => html`<tr key=${'split' + i}>
        <td data-label="Domain"><input id=${'split-domain-' + i} class="mono" aria-label=${'Split DNS domain ' + (i + 1)}
          aria-invalid=${invalid('split:' + r.domain.trim())} value=${r.domain} onInput=${(e) => setRoute(i, 'domain', e.target.value)} /></td>
        <td data-label="Nameservers"><input id=${'split-servers-' + i} class="mono" aria-label=${'Nameservers of split DNS domain ' + (i + 1)}
          value=${r.servers} onInput=${(e) => setRoute(i, 'servers', e.target.value)} /></td>
        <td><button type="button" onClick=${() => change({ ...draft, split: draft.split.filter((_, j) => j !== i) })}>
          Remove domain ${i + 1}</button></td></tr>`)}</tbody>
    </table></div>
    <div class="actions"><button type="button" onClick=${() => change({ ...draft,
      split: [...draft.split, { domain: '', servers: '', kept: [] }] })}>Add split DNS domain</button></div>

    <h2>Search paths</h2>
    <label for="search-paths">Domains tried for short names, after the base domain (separated by commas)</label>
    <input id="search-paths" class="mono" size="50" aria-invalid=${invalid('search-paths')} value=${draft.searchPaths}
      onInput=${(e) => change({ ...draft, searchPaths: e.target.value })} />

    <${Problem} error=${action.error} />
    ${saved && !action.error && html`<div class="notice ok" role="status">Saved. Connected machines get the new DNS now.</div>`}
    <div class="actions"><button class="primary" type="submit" disabled=${action.busy}>Save DNS</button>
      <button type="button" disabled=${action.busy} onClick=${() => { action.setError(null); change(draftOf(dns)); }}>Undo changes</button></div>
  </form>`;
}

export default function Dns({ may }) {
  const [dns, error, reload] = useLoad(() => get('dns'));
  return html`<h1>DNS</h1>
    <${Problem} error=${error} />
    ${dns === undefined ? !error && html`<${Loading} what="the DNS settings" />` : html`
      <${Names} dns=${dns} />
      ${may('dns') ? html`<${Editor} dns=${dns} reload=${reload} />`
        : html`<p>Your role may read the DNS settings but not change them.</p><${ReadOnly} dns=${dns} />`}`}`;
}
