// A machine waiting for its interactive login (tailscale up without a key): its AuthURL /register/<id> leads here.
// The administrator sees what the machine says of itself, picks its user or its tags, and adds it with one click
// (approving it too when device approval is on), or refuses it. All through /api/v1/auth/register, as `svc` does.
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

/** nodekey:0123abcd… : enough to compare with `tailscale status --json` on the machine. */
const shortKey = (key) => (key.length > 20 ? key.slice(0, 'nodekey:'.length + 8) + '…' : key);

function Gone() {
  return html`<div class="notice error" role="alert" data-register-expired>
    <p><strong>This login link expired.</strong> It was used already, refused, or is older than 15 minutes.
      Run <code>tailscale up</code> again on the machine for a new link.</p></div>`;
}

/** Someone signed in who may not add machines: say so, and offer their own login where there is one. */
function NotAllowed({ me, authId }) {
  return html`<div class="notice error" role="alert" data-register-forbidden>
    <p><strong>You may not add machines to the network.</strong> You are signed in as
      ${' ' + (me.user ? me.user + ' (' + me.role + ')' : me.actor)}; adding a machine needs the
      <code>devices:core</code> permission (an admin, owner or IT admin). Ask one of them to open this link.</p>
    ${me.singleSignOn && html`<p><a href=${'../register/' + encodeURIComponent(authId) + '?login=self'}>
      Add it as your own machine</a> (you log in at your identity provider).</p>`}</div>`;
}

function Facts({ machine }) {
  const os = [machine.os, machine.osVersion].filter(Boolean).join(' ');
  return html`<dl class="facts" data-register-facts>
    <dt>Hostname</dt><dd data-fact="hostname">${machine.hostname || '(none given)'}</dd>
    <dt>Operating system</dt><dd data-fact="os">${os || 'unknown'}</dd>
    <dt>Client version</dt><dd data-fact="client">${machine.clientVersion || 'unknown'}</dd>
    <dt>Node key</dt><dd class="mono" data-fact="key" title=${machine.nodeKey}>${shortKey(machine.nodeKey)}</dd>
    ${machine.requestedTags.length > 0 && html`<dt>Asks for tags</dt>
      <dd>${machine.requestedTags.map((t) => html`<span class="badge">${t}</span>`)}</dd>`}
    ${(machine.currentUser || machine.currentTags.length > 0) && html`<dt>Known machine of</dt>
      <dd>${machine.currentUser || machine.currentTags.join(', ')} (it logs in again)</dd>`}
    ${machine.ephemeral && html`<dt>Ephemeral</dt><dd>yes: removed once it is offline</dd>`}
    <dt>Link valid until</dt><dd>${when(machine.expiresAt)}</dd>
  </dl>`;
}

function Decide({ machine, me, may, onDone }) {
  const [users] = useLoad(() => (may('users:read') ? get('user') : Promise.resolve({ users: [] })));
  const startTags = machine.currentTags.length ? machine.currentTags : machine.requestedTags;
  const [owner, setOwner] = useState(startTags.length && !machine.currentUser ? 'tags' : 'user');
  const [user, setUser] = useState(machine.currentUser || me.user || '');
  const [tags, setTags] = useState(startTags.filter((t) => machine.applicableTags.includes(t)));
  const [refusing, setRefusing] = useState(false);
  const action = useAction();
  const toggle = (tag) => (e) => setTags(e.target.checked ? [...tags, tag] : tags.filter((t) => t !== tag));
  const add = (event) => {
    event.preventDefault();
    action.run(async () => {
      const body = owner === 'tags' ? { authId: machine.authId, tags, approve: true }
        : { authId: machine.authId, user, approve: true };
      onDone({ added: (await api('POST', 'auth/register', body)).body });
    });
  };
  const refuse = () => action.run(async () => {
    await api('DELETE', 'auth/register/' + encodeURIComponent(machine.authId));
    onDone({ refused: true });
  });
  const names = users ? users.users.map((u) => u.name) : [];
  if (user && !names.includes(user)) names.unshift(user);
  const belongs = owner === 'tags' ? (tags.length ? 'the tags ' + tags.join(', ') : 'the tags you pick') : (user || 'the user you pick');
  return html`<form onSubmit=${add} data-register-form>
    <fieldset class="choice"><legend>The machine belongs to</legend>
      <label class="inline"><input type="radio" name="owner" value="user" checked=${owner === 'user'}
        onChange=${() => setOwner('user')} /> A user</label>
      <label class="inline"><input type="radio" name="owner" value="tags" checked=${owner === 'tags'}
        disabled=${machine.applicableTags.length === 0} onChange=${() => setOwner('tags')} /> Tags</label>
    </fieldset>
    ${owner === 'user' ? html`<label for="register-user">User</label>
        ${names.length ? html`<select id="register-user" value=${user} required onChange=${(e) => setUser(e.target.value)}>
            <option value="">Choose a user</option>
            ${names.map((name) => html`<option value=${name}>${name}</option>`)}</select>`
          : html`<input id="register-user" value=${user} required onInput=${(e) => setUser(e.target.value)} />`}`
      : html`<fieldset class="choice" data-register-tags><legend>Tags (from the policy's tagOwners)</legend>
        <div class="checks">${machine.applicableTags.map((tag) => html`<label class="inline">
          <input type="checkbox" value=${tag} checked=${tags.includes(tag)} onChange=${toggle(tag)} /> ${tag}</label>`)}</div>
      </fieldset>`}
    ${machine.applicableTags.length === 0 && html`<p class="muted">No tags to give: the policy's tagOwners names none you may use.</p>`}
    <p>It joins as <strong data-register-owner>${belongs}</strong>${machine.devicesApprovalOn
      ? ', approved at once (device approval is on).' : '.'}</p>
    <${Problem} error=${action.error} />
    <div class="actions">
      <button class="primary" type="submit" data-register-approve
        disabled=${action.busy || (owner === 'tags' ? tags.length === 0 : !user)}>
        ${machine.devicesApprovalOn ? 'Approve and add machine' : 'Add machine'}</button>
      ${refusing
        ? html`<span role="group" aria-label="Refuse the login?">Refuse this login? The machine is told so.
            <button type="button" class="danger" onClick=${refuse} disabled=${action.busy} data-register-refuse-confirm>Refuse</button>
            <button type="button" onClick=${() => setRefusing(false)}>Keep waiting</button></span>`
        : html`<button type="button" class="danger" onClick=${() => setRefusing(true)} data-register-refuse>Refuse…</button>`}
    </div>
  </form>`;
}

// Keyed by the id: another login's link opened in the same tab starts afresh (not with the last one's outcome).
export default function Register({ params, may, me }) {
  return html`<${Login} key=${params.id} authId=${params.id} may=${may} me=${me} />`;
}

function Login({ authId, may, me }) {
  const params = { id: authId };
  const [machine, error] = useLoad(() => get('auth/register/' + encodeURIComponent(params.id)), [params.id]);
  const [done, setDone] = useState(null);
  const heading = html`<h1>A machine asks to join</h1>`;
  if (done && done.added) {
    const node = done.added;
    return html`${heading}<div class="notice ok" role="status" data-register-done>
      <p><strong>${node.name}</strong> joined as ${node.tags.length ? node.tags.join(', ') : node.user}${node.authorized
        ? '.' : ', and waits for approval.'} <code>tailscale up</code> on it finishes now.</p>
      <p><a href=${'#/machines/' + node.id}>Open the machine</a></p></div>`;
  }
  if (done && done.refused) {
    return html`${heading}<div class="notice" role="status" data-register-refused>
      <p>The login was refused; the machine was told so. It may ask again with <code>tailscale up</code>.</p></div>`;
  }
  if (error && error.status === 404) return html`${heading}<${Gone} />`;
  if (error && error.status === 403) return html`${heading}<${NotAllowed} me=${me} authId=${params.id} />`;
  if (error) return html`${heading}<${Problem} error=${error} />`;
  if (!machine) return html`${heading}<${Loading} what="the machine" />`;
  return html`${heading}
    <p>Someone ran <code>tailscale up</code> on this machine and opened its login link.</p>
    <${Facts} machine=${machine} />
    ${may('devices:core') ? html`<${Decide} machine=${machine} me=${me} may=${may} onDone=${setDone} />`
      : html`<${NotAllowed} me=${me} authId=${params.id} />`}`;
}
