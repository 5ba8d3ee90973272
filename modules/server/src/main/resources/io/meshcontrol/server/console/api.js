// The console's one way to the server: /api/v1 with the session cookie, the CSRF token on every change.
// Every URL is relative to the page (…/admin/), so the console works behind a proxy's path prefix.

let csrfToken = null;
let onSignedOut = () => {};
let onReachable = () => {};

/** Tells `listener(true/false)` whether the server answered the last call at all (any status) or could not be reached. */
export function watchServer(listener) {
  onReachable = listener;
}

/** What a call that got no answer throws: the server is down or the network is gone, not a refusal. */
export const UNREACHABLE = 'The server cannot be reached.';

/** Remembers the session's CSRF token and what to do when the server says the session is over. */
export function useSession(session, signedOut) {
  csrfToken = session && session.csrfToken;
  onSignedOut = signedOut;
}

/** A refusal, with the problem detail the server wrote (RFC 7807). */
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || 'HTTP ' + status);
    this.status = status;
    this.problem = problem;
  }
}

async function call(url, method, body, headers) {
  const sent = { Accept: 'application/json', ...headers };
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) sent['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(url, {
      method, headers: sent, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    onReachable(false);
    throw new ApiError(0, { detail: UNREACHABLE });
  }
  onReachable(true);
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (e) { data = { detail: text }; }
  }
  if (!response.ok) {
    if (response.status === 401 && url.includes('api/v1/')) onSignedOut();
    throw new ApiError(response.status, data);
  }
  return { status: response.status, body: data, etag: response.headers.get('ETag') };
}

/** An /api/v1 operation: api('POST', 'node/3/approve'). */
export function api(method, path, body, headers = {}) {
  return call('../api/v1/' + path, method, body, headers);
}

export const get = (path) => api('GET', path).then((answer) => answer.body);

// Live updates: one EventSource per page on /api/v1/events, shared by every view that follows changes.
const changeListeners = new Set();
let changes = null;

/**
 * Calls `listener` with each change digest the server sends ({ nodes, users, policy, context, areas }), and with
 * { reconnected: true } when the stream came back after a break (changes may have been missed: read again).
 * Returns the function that stops listening; the stream closes with its last listener.
 */
export function onChange(listener) {
  changeListeners.add(listener);
  if (!changes) {
    const source = new EventSource('../api/v1/events');
    let connectedBefore = false;
    const tell = (digest) => changeListeners.forEach((each) => each(digest));
    source.addEventListener('ready', () => {
      onReachable(true);
      if (connectedBefore) tell({ reconnected: true });
      connectedBefore = true;
    });
    // The stream broke (the server stopped, the network went): the page shows the server as lost until the
    // browser's own reconnection, or any other call, gets an answer.
    source.addEventListener('error', () => onReachable(false));
    source.addEventListener('change', (event) => tell(JSON.parse(event.data)));
    changes = source;
  }
  return () => {
    changeListeners.delete(listener);
    if (changeListeners.size === 0 && changes) {
      changes.close();
      changes = null;
    }
  };
}

/** The console's own session endpoint (sign in, who am I, sign out). */
export function session(method, body) {
  return call('session', method, body, {}).then((answer) => answer.body);
}

/** The server's rule of scopes: all covers everything, all:read every read, X covers X:read. */
export function covers(held, wanted) {
  if (!held) return false;
  if (held.includes('all') || held.includes(wanted)) return true;
  if (wanted.endsWith(':read')) {
    return held.includes('all:read') || held.includes(wanted.slice(0, -':read'.length));
  }
  return false;
}

export function when(instant) {
  if (!instant) return '';
  const date = new Date(instant);
  return date.toLocaleString();
}

/** "3 min ago", "in 2 days". */
export function relative(instant, now = Date.now()) {
  if (!instant) return '';
  const seconds = Math.round((new Date(instant).getTime() - now) / 1000);
  const units = [['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return '';
}
