// Users: the list with roles; create, change a role (asked first), delete, approve (users approval).
import { html, useState } from './vendor/preact-htm.js';
import { api, get, when } from './api.js';
import { useLoad, useAction, Problem, Loading } from './ui.js';

const ROLES = ['owner', 'admin', 'it-admin', 'network-admin', 'billing-admin', 'auditor', 'member'];

/**
 * A user's role: choosing one only selects it (arrow keys move through the list without saving); *Save role* asks
 * first, and warns when it is your own role, since you may lose access.
 */
function RoleChoice({ user, me, busy, onSave }) {
  const [role, setRole] = useState(user.role);
  const own = me && me.user === user.name;
  const save = () => confirm(own
    ? 'Change your own role from ' + user.role + ' to ' + role + '? You may lose access to pages and actions, '
      + 'this page included, and only another administrator can give it back.'
    : 'Change the role of ' + user.name + ' from ' + user.role + ' to ' + role + '?') && onSave(role);
  return html`<span class="row">
    <select aria-label=${'Role of ' + user.name} value=${role} disabled=${busy} onChange=${(e) => setRole(e.target.value)}>
      ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}</select>
    ${role !== user.role && html`<button type="button" disabled=${busy} onClick=${save}>Save role</button>`}</span>`;
}

export default function Users({ may, me }) {
  const [data, error, reload] = useLoad(() => get('user'));
  const [form, setForm] = useState({ name: '', email: '', role: 'member' });
  const action = useAction();
  const canChange = may('users');
  const change = (call) => action.run(async () => { await call(); reload(); });
  const create = (e) => {
    e.preventDefault();
    change(() => api('POST', 'user', { name: form.name, email: form.email || null, role: form.role }))
      .then(() => setForm({ name: '', email: '', role: 'member' }));
  };
  return html`<h1>Users</h1>
    <${Problem} error=${error || action.error} />
    ${canChange && html`<form onSubmit=${create}><div class="row">
      <div><label for="user-name">Name</label>
        <input id="user-name" required value=${form.name} onInput=${(e) => setForm({ ...form, name: e.target.value })} /></div>
      <div><label for="user-email">E-mail</label>
        <input id="user-email" type="email" value=${form.email} onInput=${(e) => setForm({ ...form, email: e.target.value })} /></div>
      <div><label for="user-role">Role</label>
        <select id="user-role" value=${form.role} onChange=${(e) => setForm({ ...form, role: e.target.value })}>
          ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}</select></div>
      <button class="primary" type="submit" disabled=${action.busy}>Create user</button>
    </div></form>`}
    ${data === undefined ? html`<${Loading} what="users" />` : html`<div class="table-wrap"><table class="responsive">
      <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Since</th>
        <th scope="col"><span class="skip">Actions</span></th></tr></thead>
      <tbody>${data.users.map((user) => html`<tr key=${user.id} data-user=${user.name}>
        <td data-label="Name">${user.name} ${user.displayName && html`<span class="muted">${user.displayName}</span>`}
          ${!user.approved && html` <span class="badge waiting">needs approval</span>`}</td>
        <td data-label="E-mail">${user.email}</td>
        <td data-label="Role">${canChange ? html`<${RoleChoice} user=${user} me=${me} busy=${action.busy}
            onSave=${(role) => change(() => api('PATCH', 'user/' + user.id, { role }))} />` : user.role}</td>
        <td data-label="Since">${when(user.createdAt)}</td>
        <td>${canChange && html`${!user.approved && html`<button type="button" class="primary" disabled=${action.busy}
            onClick=${() => change(() => api('POST', 'user/' + user.id + '/approve'))}>Approve</button> `}
          <button type="button" class="danger" disabled=${action.busy}
            onClick=${() => confirm('Delete ' + user.name + ' and their machines and keys?')
              && change(() => api('DELETE', 'user/' + user.id))}>Delete</button>`}</td>
      </tr>`)}</tbody></table></div>`}`;
}
