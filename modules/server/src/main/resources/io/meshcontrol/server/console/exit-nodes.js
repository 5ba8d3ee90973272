// Every exit node: approved or waiting, the global mark and its priority, online, and what clients are told about it
// and which they would pick, by the rules of docs/routes.md ("Global exit nodes").
import { html } from './vendor/preact-htm.js';
import { get } from './api.js';
import { useLoad, Problem, Loading } from './ui.js';

const EXIT = ['0.0.0.0/0', '::/0'];
const offers = (n) => n.routes.available.some((r) => EXIT.includes(r));
const serves = (n) => n.routes.serving.some((r) => EXIT.includes(r));

/**
 * What clients do with each exit node. A mark counts while the node serves its exit routes and is approved; with
 * marks only marked nodes are suggested; with a priority above 0 clients of 1.86 or later pick the highest online
 * priority (equal ones split between clients by a hash of both ids); otherwise the suggested node closest by region.
 */
export function steering(nodes) {
  const exits = nodes.filter(offers);
  const counted = exits.filter((n) => n.routes.globalExitNode && serves(n) && n.authorized && !n.suspended);
  const suggested = new Set((counted.length ? counted : exits.filter(serves)).map((n) => n.id));
  const online = counted.filter((n) => n.online && n.routes.exitNodePriority > 0);
  const top = online.length ? Math.max(...online.map((n) => n.routes.exitNodePriority)) : 0;
  const picked = online.filter((n) => n.routes.exitNodePriority === top);
  return exits.map((node) => {
    let pick;
    if (!suggested.has(node.id)) pick = serves(node) ? 'not suggested: other nodes are marked' : 'not serving its exit routes';
    else if (top > 0) {
      pick = picked.some((n) => n.id === node.id)
        ? (picked.length > 1 ? 'picked by part of the clients (equal priority ' + top + ' with ' + (picked.length - 1) + ' more)'
          : 'picked by every client of 1.86 or later (highest online priority)')
        : 'a fallback: picked when the higher priorities are offline';
    } else pick = 'suggested: each client picks the closest suggested node by its relay region';
    return { node, suggested: suggested.has(node.id), pick };
  });
}

export default function ExitNodes({ may }) {
  const [data, error] = useLoad(() => get('node'), [], (digest) => digest.nodes.length > 0 || digest.policy);
  const rows = data === undefined ? [] : steering(data.nodes);
  return html`<h1>Exit nodes</h1>
    <p>Machines that offer to route all traffic. Mark one as a <strong>global</strong> exit node, with a priority,
      on its machine page; whether a device uses an exit node stays the device's choice.</p>
    <${Problem} error=${error} />
    ${data === undefined ? !error && html`<${Loading} what="exit nodes" />`
      : rows.length === 0 ? html`<p class="muted">No machine offers an exit route (<code>tailscale up --advertise-exit-node</code>).</p>`
      : html`<div class="table-wrap"><table class="responsive" aria-label="Exit nodes">
        <thead><tr><th scope="col">Machine</th><th scope="col">Status</th><th scope="col">Exit routes</th>
          <th scope="col">Home region</th><th scope="col">Global mark</th><th scope="col">Priority</th><th scope="col">Which clients pick it</th></tr></thead>
        <tbody>${rows.map(({ node, pick }) => html`<tr key=${node.id} data-exit-node=${node.name}>
          <td data-label="Machine">${may('devices:core:read') ? html`<a href=${'#/machines/' + node.id}>${node.name}</a>` : node.name}</td>
          <td data-label="Status">${node.online ? html`<span class="badge online">online</span>` : html`<span class="offline">offline</span>`}</td>
          <td data-label="Exit routes">${serves(node) ? 'serving' : node.routes.approved.some((r) => EXIT.includes(r))
            ? 'approved' : html`<span class="waiting">waiting for approval</span>`}</td>
          <td data-label="Home region" data-region>${node.routes.homeRegion ? 'DERP region ' + node.routes.homeRegion
            : html`<span class="muted">not reported</span>`}</td>
          <td data-label="Global mark">${node.routes.globalExitNode ? 'marked' : html`<span class="muted">not marked</span>`}</td>
          <td data-label="Priority">${node.routes.globalExitNode ? node.routes.exitNodePriority : '–'}</td>
          <td data-label="Picked by" data-pick>${pick}</td>
        </tr>`)}</tbody></table></div>`}`;
}
