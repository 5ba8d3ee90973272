// Add a machine: a pre-auth key made here, and the exact command that joins a machine with it.
import { html, useState } from './vendor/preact-htm.js';
import { api, get } from './api.js';
import { useLoad, useAction, Problem, Secret } from './ui.js';
import { DurationField, KEY_PRESETS, describe, toGo } from './duration.js';

export default function AddMachine({ may, me }) {
  const [server] = useLoad(() => get('server'));
  const [users] = useLoad(() => (may('users:read') ? get('user') : Promise.resolve({ users: [] })));
  const [changed, setForm] = useState({});
  // a new key starts from the server's defaults (GET /api/v1/server), the same as the CLI's and the desktop app's
  const defaults = server && server.newPreAuthKey;
  const form = { user: me.user || '', tags: '', ...(defaults ? { reusable: defaults.reusable, ephemeral: defaults.ephemeral,
    preauthorized: defaults.preauthorized, expiration: describe(defaults.expiration) } : {}), ...changed };
  const [issued, setIssued] = useState(null);
  const action = useAction();
  const set = (field) => (e) => setForm({ ...changed, [field]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const create = (event) => {
    event.preventDefault();
    action.run(async () => {
      const tags = form.tags.split(/[\s,]+/).filter(Boolean);
      const answer = await api('POST', 'preauthkey', {
        user: tags.length ? null : form.user || null, tags, reusable: form.reusable, ephemeral: form.ephemeral,
        preauthorized: form.preauthorized, expiration: toGo(form.expiration), description: 'made in the console',
      });
      setIssued(answer.body);
    });
  };
  const serverUrl = server ? server.serverUrl.replace(/\/+$/, '') : '';
  return html`<h1>Add a machine</h1>
    <p>Make a key for the machine, then run the command on it (Tailscale's own client, any platform).</p>
    <form onSubmit=${create}>
      <div class="row">
        <div><label for="key-user">Owner</label>
          ${users && users.users.length
            ? html`<select id="key-user" value=${form.user} onChange=${set('user')}>
                <option value="">Choose a user</option>
                ${users.users.map((u) => html`<option value=${u.name}>${u.name}</option>`)}</select>`
            : html`<input id="key-user" value=${form.user} onInput=${set('user')} />`}</div>
        <div><label for="key-tags">or tags (the machine is owned by them)</label>
          <input id="key-tags" value=${form.tags} placeholder="tag:server" onInput=${set('tags')} /></div>
        <${DurationField} id="key-expiration" label="Key valid for" value=${form.expiration || ''} presets=${KEY_PRESETS}
          required=${true} onChange=${(expiration) => setForm({ ...changed, expiration })} />
      </div>
      <label class="inline"><input type="checkbox" checked=${form.reusable} onChange=${set('reusable')} /> Reusable (several machines)</label>
      <label class="inline"><input type="checkbox" checked=${form.ephemeral} onChange=${set('ephemeral')} /> Ephemeral (removed when offline)</label>
      <label class="inline"><input type="checkbox" checked=${form.preauthorized} onChange=${set('preauthorized')} /> Pre-approved</label>
      <${Problem} error=${action.error} />
      <div class="actions"><button class="primary" type="submit" disabled=${action.busy || !defaults}>Make the key</button></div>
    </form>
    ${issued && html`<section aria-labelledby="join-title">
      <h2 id="join-title">Join the machine</h2>
      <${Secret} label="The key." value=${issued.secret} />
      <p>On the machine, run:</p>
      <pre class="command" data-command>tailscale up --login-server=${serverUrl} --auth-key=${issued.secret}</pre>
      <p>It shows up on the <a href="#/machines">machines page</a> as soon as it connects.</p>
    </section>`}`;
}
