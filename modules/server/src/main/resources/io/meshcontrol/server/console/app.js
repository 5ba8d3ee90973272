// The console's shell: sign-in, the navigation, and the page the address's #/… names.
import { html, render, useState, useEffect } from './vendor/preact-htm.js';
import { session as sessionCall, useSession, covers, ApiError, watchServer } from './api.js';
import { Problem } from './ui.js';
import Machines from './machines.js';
import Machine from './machine.js';
import AddMachine from './add-machine.js';
import Policy from './policy.js';
import Keys from './keys.js';
import Users from './users.js';
import Settings from './settings.js';
import Dns from './dns.js';
import Webhooks from './webhooks.js';
import Apps from './apps.js';
import Audit from './audit.js';
import ExitNodes from './exit-nodes.js';
import OAuthClients from './oauth.js';
import AccessRequests from './access-requests.js';
import LogStreams from './log-streams.js';
import PostureIntegrations from './posture.js';
import Services from './services.js';
import Register from './register.js';
import Overview from './overview.js';

// One line per page: adding a page is a module and a line here. `scope`: what the caller needs to see it (a list: any one).
const PAGES = [
  { path: 'overview', title: 'Overview', scope: 'devices:core:read', page: Overview, nav: true },
  { path: 'machines', title: 'Machines', scope: null, page: Machines, nav: true },
  { path: 'machines/show/:show', title: 'Machines', scope: null, page: Machines },
  { path: 'machines/:id', title: 'Machine', scope: null, page: Machine },
  { path: 'add', title: 'Add a machine', scope: 'auth_keys', page: AddMachine, nav: true },
  { path: 'policy', title: 'Access controls', scope: 'policy_file:read', page: Policy, nav: true },
  { path: 'users', title: 'Users', scope: 'users:read', page: Users, nav: true },
  { path: 'dns', title: 'DNS', scope: 'dns:read', page: Dns, nav: true },
  { path: 'keys', title: 'Keys', scope: null, page: Keys, nav: true },
  { path: 'settings', title: 'Settings', scope: 'feature_settings:read', page: Settings, nav: true },
  { path: 'exit-nodes', title: 'Exit nodes', scope: 'devices:core:read', page: ExitNodes, nav: true },
  { path: 'apps', title: 'Apps', scope: 'policy_file:read', page: Apps, nav: true },
  { path: 'access-requests', title: 'Access requests', scope: null, page: AccessRequests, nav: true },
  { path: 'webhooks', title: 'Webhooks', scope: 'webhooks:read', page: Webhooks, nav: true },
  { path: 'oauth-clients', title: 'OAuth clients', scope: ['oauth_keys:read', 'federated_keys:read'], page: OAuthClients, nav: true },
  { path: 'audit', title: 'Audit log', scope: 'logs:configuration:read', page: Audit, nav: true },
  { path: 'log-streams', title: 'Log streaming', scope: 'log_streaming:read', page: LogStreams, nav: true },
  { path: 'posture', title: 'Posture', scope: 'feature_settings:read', page: PostureIntegrations, nav: true },
  { path: 'services', title: 'Services', scope: 'services:read', page: Services, nav: true },
  { path: 'register/:id', title: 'A machine asks to join', scope: null, page: Register },
];

function match(hash) {
  const path = hash.startsWith('#/') ? hash.slice(2) : 'machines';
  for (const entry of PAGES) {
    const names = entry.path.split('/');
    const parts = path.split('/');
    if (names.length !== parts.length) continue;
    const params = {};
    if (names.every((name, i) => (name.startsWith(':') ? (params[name.slice(1)] = decodeURIComponent(parts[i])) : name === parts[i]))) {
      return { entry, params };
    }
  }
  return { entry: PAGES[0], params: {} };
}

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => { if (location.hash === '' || location.hash.startsWith('#/')) setHash(location.hash); };
    addEventListener('hashchange', changed);
    changed(); // a change between the first render and this subscription fired no event here
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

function SignIn({ state, onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const hash = useHash(); // OIDC sign-in comes back to the page asked for
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await sessionCall('POST', { apiKey: key }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin">
    <${Brand} state=${state} />
    <h1>Sign in to ${brandName(state)}</h1>
    <form onSubmit=${submit}>
      <label for="api-key">API key</label>
      <input id="api-key" name="apiKey" type="password" autocomplete="off" required value=${key}
        onInput=${(e) => setKey(e.target.value)} aria-describedby="api-key-help" />
      <p id="api-key-help" class="muted">An API key (<code>svc apikeys create</code>). The console acts with
        exactly this key's permissions.</p>
      <${Problem} error=${error} />
      <div class="actions"><button class="primary" type="submit" disabled=${busy}>Sign in</button></div>
    </form>
    ${state && state.singleSignOn && html`<p><a href=${'../login?return_to=' + encodeURIComponent('/admin/' + hash)}>
      Sign in with your organisation's account</a></p>`}
  </main>`;
}

/** branding.* as the server reports it: the product name, and its logo when one is set. */
const brandName = (state) => (state && state.brand) || 'Mesh Control';

function Brand({ state }) {
  return html`<span class="brand">${state && state.logo && html`<img src=${state.logo} alt="" height="24" />`}
    ${brandName(state)}</span>`;
}

/**
 * One clear state while the server cannot be reached, instead of each page's own errors; retries by itself too. The
 * page stays mounted but hidden meanwhile, so that unsaved edits (a policy being written) survive the outage.
 */
function Lost({ title }) {
  const [busy, setBusy] = useState(false);
  const retry = () => { setBusy(true); sessionCall('GET').catch(() => {}).finally(() => setBusy(false)); };
  useEffect(() => { const timer = setInterval(retry, 5000); return () => clearInterval(timer); }, []);
  return html`<h1>${title}</h1>
    <div class="notice error" role="alert" data-lost-server>
      <p><strong>The server cannot be reached.</strong> The page comes back, with what you typed, once it answers again; the
        console tries again every 5 seconds.</p>
      <button type="button" onClick=${retry} disabled=${busy}>${busy ? 'Trying…' : 'Retry now'}</button></div>`;
}

function Shell({ me, onSignOut }) {
  const [lost, setLost] = useState(false);
  useEffect(() => watchServer((reachable) => setLost(!reachable)), []);
  const hash = useHash();
  const { entry, params } = match(hash);
  const may = (scope) => [].concat(scope).some((one) => covers(me.scopes, one));
  const allowed = !entry.scope || may(entry.scope);
  useEffect(() => { document.title = entry.title + ' · ' + brandName(me); }, [entry]);
  const Page = entry.page;
  const current = entry.path.split('/')[0];
  return html`<div>
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main').focus(); }}>
      Skip to content</a>
    <header class="top">
      <${Brand} state=${me} />
      <nav aria-label="Console"><ul>
        ${PAGES.filter((p) => p.nav && (!p.scope || may(p.scope))).map((p) => html`<li>
          <a href=${'#/' + p.path} aria-current=${p.path === current ? 'page' : undefined}>${p.title}</a></li>`)}
      </ul></nav>
      <div class="who"><span data-actor>${me.user ? me.user + ' (' + me.role + ')' : me.actor}</span>
        <button type="button" onClick=${onSignOut}>Sign out</button></div>
    </header>
    <main id="main" tabindex="-1">
      ${lost && html`<${Lost} title=${entry.title} />`}
      <div hidden=${lost}>${allowed ? html`<${Page} params=${params} may=${may} me=${me} />`
        : html`<h1>${entry.title}</h1><p>Your role cannot see this page.</p>`}</div>
    </main>
  </div>`;
}

function App() {
  const [state, setState] = useState(undefined);
  const [error, setError] = useState(null);
  const signedOut = () => setState((old) => ({ ...(old || {}), signedIn: false }));
  const load = () => sessionCall('GET').then(setState, setError);
  useEffect(() => { load(); }, []);
  useSession(state && state.signedIn ? state : null, signedOut);
  if (error) {
    return html`<main id="main"><${Problem} error=${error} />
      <button type="button" onClick=${() => { setError(null); setState(undefined); load(); }}>Retry</button></main>`;
  }
  if (state === undefined) return html`<p class="loading">Loading the console…</p>`;
  if (!state.signedIn) return html`<${SignIn} state=${state} onSignedIn=${setState} />`;
  const signOut = async () => {
    try { await sessionCall('DELETE'); } catch (e) { if (!(e instanceof ApiError)) throw e; }
    setState({ signedIn: false, singleSignOn: state.singleSignOn, brand: state.brand, logo: state.logo });
  };
  return html`<${Shell} me=${state} onSignOut=${signOut} />`;
}

render(html`<${App} />`, document.getElementById('app'));
