// Small shared pieces of the pages: loading with optional polling, error notices, a copy button, filter addresses.
import { html, useState, useEffect, useCallback, useRef } from './vendor/preact-htm.js';
import { onChange } from './api.js';

/**
 * Loads with `load()` now and whenever `deps` change. `refresh` keeps it current while shown: a function of a change
 * digest from the server's event stream (true: this view shows something that changed, read again), or a number of
 * milliseconds to poll (for what changes without a change of state, such as measured latencies).
 * Returns [data, error, reload].
 */
export function useLoad(load, deps = [], refresh = 0) {
  const [state, setState] = useState({ data: undefined, error: null });
  // Loads can overlap (a change arrives while the first load runs); only the newest one's answer is shown, so a
  // slow older answer never replaces a newer one.
  const latest = useRef(0);
  const reload = useCallback(() => {
    const mine = ++latest.current;
    return load().then(
      (data) => { if (mine === latest.current) setState({ data, error: null }); },
      (error) => { if (mine === latest.current) setState((old) => ({ data: old.data, error })); });
  }, deps);
  useEffect(() => {
    reload();
    if (typeof refresh === 'function') {
      return onChange((digest) => { if (digest.reconnected || refresh(digest)) reload(); });
    }
    if (!refresh) return undefined;
    const timer = setInterval(reload, refresh);
    return () => clearInterval(timer);
  }, [reload]);
  return [state.data, state.error, reload];
}

/** An error the server reported, as it wrote it. */
export function Problem({ error }) {
  if (!error) return null;
  return html`<div class="notice error" role="alert">${error.message}</div>`;
}

export function Loading({ what }) {
  return html`<p class="muted" aria-live="polite">Loading ${what}…</p>`;
}

/** A secret shown once, with a button that copies it. */
export function Secret({ label, value }) {
  const [copied, setCopied] = useState(false);
  const copy = () => navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false));
  return html`<div class="notice ok" role="status">
    <p><strong>${label}</strong> It is shown only now: copy it somewhere safe.</p>
    <div class="secret"><code data-secret>${value}</code>
      <button type="button" onClick=${copy}>${copied ? 'Copied' : 'Copy'}</button></div>
  </div>`;
}

/** Runs an action, showing its refusal; `busy` while it runs. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (action) => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** An address, prefix or range of a packet-filter rule, named when it is a machine's (`names`: address to name). */
export function Address({ address, names }) {
  if (address === '*') return html`<span>any address</span>`;
  const name = names && names.get(address);
  return name ? html`<span>${name} <span class="muted mono">${address}</span></span>` : html`<span class="mono">${address}</span>`;
}

/** A filter destination's ports as words: "port 22", "ports 8000-8080", "every port". */
export function Ports({ ports }) {
  const words = ports === '*' ? 'every port' : (ports.includes('-') || ports.includes(',') ? 'ports ' : 'port ') + ports;
  return html` on <strong data-ports>${words}</strong>`;
}
