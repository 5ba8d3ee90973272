// Access controls: the policy (HuJSON) in an editor with line numbers, its tests run before a save, and the save
// conditional on the version loaded (If-Match), so that a concurrent save is shown instead of overwritten.
import { html, useState, useEffect, useRef } from './vendor/preact-htm.js';
import { api } from './api.js';
import { useAction, Problem, Loading } from './ui.js';

/** The line numbers a server's error text names ("line 12", "12:5"), to mark them in the gutter. */
export function errorLines(message) {
  const lines = new Set();
  for (const found of (message || '').matchAll(/\bline (\d+)|(?:^|\s)(\d+):\d+\b/g)) {
    lines.add(Number(found[1] || found[2]));
  }
  return lines;
}

function Editor({ text, onInput, readOnly, marked }) {
  const gutter = useRef(null);
  const count = text.split('\n').length;
  const sync = (e) => { if (gutter.current) gutter.current.scrollTop = e.target.scrollTop; };
  return html`<div class="editor">
    <pre class="gutter mono" aria-hidden="true" ref=${gutter}>${Array.from({ length: count }, (_, i) =>
      html`<span class=${marked.has(i + 1) ? 'err' : ''}>${i + 1}${'\n'}</span>`)}</pre>
    <textarea id="policy-text" class="mono" spellcheck="false" readOnly=${readOnly} value=${text}
      aria-label="Policy (HuJSON)" aria-describedby="policy-status"
      onInput=${(e) => onInput(e.target.value)} onScroll=${sync}></textarea>
  </div>`;
}

export default function Policy({ may }) {
  const [saved, setSaved] = useState(undefined);
  const [text, setText] = useState('');
  const [result, setResult] = useState(null);
  const [conflict, setConflict] = useState(false);
  const action = useAction();
  const canSave = may('policy_file');
  const load = () => action.run(async () => {
    const answer = await api('GET', 'policy');
    setSaved({ text: answer.body.policy, etag: answer.etag });
    setText(answer.body.policy);
    setConflict(false);
    setResult(null);
  });
  useEffect(() => { load(); }, []);
  const check = () => action.run(async () => {
    const answer = await api('POST', 'policy/check', { policy: text });
    setResult({ ok: true, message: 'The policy is valid: ' + answer.body.tests + ' test(s) and '
      + answer.body.sshTests + ' SSH test(s) passed.' });
    return true;
  });
  const save = async () => {
    setResult(null);
    if (!(await check())) return;
    await action.run(async () => {
      try {
        const answer = await api('PUT', 'policy', { policy: text }, { 'If-Match': saved.etag });
        setSaved({ text: answer.body.policy, etag: answer.etag });
        setResult({ ok: true, message: 'Saved. Machines get the new rules now.' });
      } catch (e) {
        if (e.status === 412) {
          setConflict(true);
          return;
        }
        throw e;
      }
    });
  };
  if (saved === undefined) return html`<h1>Access controls</h1><${Problem} error=${action.error} />${!action.error && html`<${Loading} what="the policy" />`}`;
  const marked = errorLines(action.error && action.error.message);
  return html`<h1>Access controls</h1>
    <p>Who may reach what, as HuJSON (JSON with comments and trailing commas). The policy's <code>tests</code> run
      before every save; a policy whose tests fail is not saved.</p>
    ${!canSave && html`<p class="notice">Your role may read the policy but not change it.</p>`}
    <${Editor} text=${text} onInput=${(value) => { setText(value); setResult(null); }} readOnly=${!canSave} marked=${marked} />
    <div id="policy-status" aria-live="polite">
      <${Problem} error=${action.error} />
      ${result && html`<div class=${'notice ' + (result.ok ? 'ok' : 'error')} role="status">${result.message}</div>`}
      ${conflict && html`<div class="notice error" role="alert">Someone saved the policy after you opened it, so
        yours was not saved (nothing was overwritten). Your text is still here; copy what you need, then
        <button type="button" onClick=${load}>Load the saved policy</button> and apply your change again.</div>`}
    </div>
    <div class="actions">
      <button type="button" onClick=${check} disabled=${action.busy}>Run tests</button>
      ${canSave && html`<button type="button" class="primary" onClick=${save}
        disabled=${action.busy || text === saved.text}>Save</button>
        <button type="button" onClick=${() => { setText(saved.text); setResult(null); action.setError(null); }}
          disabled=${action.busy || text === saved.text}>Discard changes</button>`}
    </div>`;
}
