// Overview: what an administrator looks at first, in one small answer the server counts (GET /api/v1/overview):
// machines online and waiting for approval, keys expiring soon, clients out of date, relay health and latency.
// Read again when the event stream names a change of machines, keys or what maps carry.
import { html } from './vendor/preact-htm.js';
import { get, when } from './api.js';
import { useLoad, Problem, Loading } from './ui.js';

const KEY_AREAS = new Set(['preauthkey', 'apikey']);

/** A count with what it counts, linking to the page that lists them. */
function Fact({ name, value, href, tone, note }) {
  const shown = value === null || value === undefined ? '—' : value;
  return html`<div class="fact" data-fact=${name}>
    <dt>${href ? html`<a href=${href}>${note}</a>` : note}</dt>
    <dd class=${tone && value > 0 ? tone : ''} data-count>${shown}</dd>
  </div>`;
}

/**
 * Median latency per relay region as horizontal bars (inline SVG, no library): the bar's length is the region's
 * median over the slowest median; regions nobody measured are listed without a bar.
 */
function LatencyChart({ relays }) {
  const measured = relays.filter((r) => r.medianMs !== null);
  if (!measured.length) return html`<p class="muted">No machine has measured the relays yet.</p>`;
  const slowest = Math.max(...measured.map((r) => r.medianMs));
  const row = 28;
  const label = 140;
  const width = 520;
  const bar = width - label - 70;
  return html`<figure class="latency-chart">
    <svg role="img" aria-labelledby="latency-chart-title" viewBox=${'0 0 ' + width + ' ' + measured.length * row}
      width="100%" preserveAspectRatio="xMinYMin meet">
      <title id="latency-chart-title">Median relay latency by region: ${measured.map((r) => (r.name || r.code || r.regionId)
        + ' ' + Math.round(r.medianMs) + ' ms').join(', ')}</title>
      ${measured.map((r, i) => html`<g data-region=${r.regionId} transform=${'translate(0,' + i * row + ')'}>
        <text x="0" y="18" class="chart-label">${short(r)}</text>
        <rect x=${label} y="6" height="16" rx="3" class="chart-bar"
          width=${Math.max(2, (r.medianMs / slowest) * bar)} />
        <text x=${label + Math.max(2, (r.medianMs / slowest) * bar) + 6} y="18" class="chart-label">${Math.round(r.medianMs)} ms</text>
      </g>`)}
    </svg>
    <figcaption class="muted">Median round trip the machines measured to each relay region.</figcaption>
  </figure>`;
}

/** A region's label that fits beside its bar: its code, else its name, cut to 16 characters. */
function short(region) {
  const label = region.code || region.name || 'region ' + region.regionId;
  return label.length > 16 ? label.slice(0, 15) + '…' : label;
}

const STATUS = { up: ['online', 'up'], down: ['bad', 'down'], unknown: ['muted', 'not measured yet'] };

export default function Overview({ may }) {
  const [data, error] = useLoad(() => get('overview'), [],
    (digest) => digest.nodes.length > 0 || digest.context || digest.areas.some((area) => KEY_AREAS.has(area)));
  if (data === undefined) return html`<h1>Overview</h1><${Problem} error=${error} />${!error && html`<${Loading} what="the overview" />`}`;
  const m = data.machines;
  const k = data.keys;
  const down = data.relays.filter((r) => r.status === 'down').length;
  return html`<h1>Overview</h1>
    <${Problem} error=${error} />
    <section aria-labelledby="overview-machines"><h2 id="overview-machines">Machines</h2>
      <dl class="facts-grid">
        <${Fact} name="online" note=${'Online of ' + m.total} value=${m.online} href="#/machines/show/online" />
        <${Fact} name="waiting" note="Waiting for approval" value=${m.waitingForApproval} href="#/machines/show/approval" tone="waiting" />
        <${Fact} name="outdated" note=${m.latestClientVersion ? 'Clients older than ' + m.latestClientVersion : 'Clients out of date (no release lookup)'}
          value=${m.latestClientVersion ? m.updateAvailable : null} href="#/machines/show/update" tone="waiting" />
        <${Fact} name="machine-keys-soon" note="Machine keys expiring within 7 days" value=${m.keysExpiringSoon} href="#/machines/show/expiring" tone="waiting" />
        <${Fact} name="machine-keys-expired" note="Machine keys expired" value=${m.keysExpired} href="#/machines/show/expired" tone="bad" />
      </dl>
    </section>
    <section aria-labelledby="overview-keys"><h2 id="overview-keys">Keys expiring within 7 days</h2>
      <dl class="facts-grid">
        ${k.preAuthKeysExpiringSoon !== undefined && html`<${Fact} name="preauth-soon" note="Pre-auth keys"
          value=${k.preAuthKeysExpiringSoon} href="#/keys" tone="waiting" />`}
        ${k.apiKeysExpiringSoon !== undefined && html`<${Fact} name="apikeys-soon" note="API keys"
          value=${k.apiKeysExpiringSoon} href="#/keys" tone="waiting" />`}
      </dl>
      ${k.preAuthKeysExpiringSoon === undefined && k.apiKeysExpiringSoon === undefined
        && html`<p class="muted">Your role cannot see keys.</p>`}
    </section>
    <section aria-labelledby="overview-relays"><h2 id="overview-relays">Relays</h2>
      <p data-relay-summary>${data.relays.length} region(s), ${data.relays.filter((r) => r.status === 'up').length} up${down ? html`, <span class="bad">${down} down</span>` : ''}.
        ${data.relayProblem && html`<span class="bad">Embedded relay: ${data.relayProblem}</span>`}</p>
      ${data.relays.length > 0 && html`<div class="table-wrap"><table class="responsive" aria-label="Relay regions">
        <thead><tr><th scope="col">Region</th><th scope="col">State</th><th scope="col">Home of</th><th scope="col">Median</th></tr></thead>
        <tbody>${data.relays.map((r) => html`<tr key=${r.regionId} data-relay=${r.regionId} data-status=${r.status}>
          <td data-label="Region">${r.name || r.code} <span class="muted mono">${r.regionId}</span></td>
          <td data-label="State" class=${STATUS[r.status][0]}>${STATUS[r.status][1]}</td>
          <td data-label="Home of">${r.preferredBy} machine(s)</td>
          <td data-label="Median">${r.medianMs === null ? '—' : Math.round(r.medianMs) + ' ms'}</td>
        </tr>`)}</tbody></table></div>`}
      <${LatencyChart} relays=${data.relays} />
    </section>
    <p class="muted">Counted ${when(data.at)}; updates as machines and keys change.</p>`;
}
