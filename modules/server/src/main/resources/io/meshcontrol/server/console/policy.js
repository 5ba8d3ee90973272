// Access controls: the policy (HuJSON) in an editor with line numbers and syntax colours, its tests run before a save,
// the save conditional on the version loaded (If-Match), so that a concurrent save is shown instead of overwritten,
// and a preview of what a machine may reach under the text being edited.
import { html, useState, useEffect, useRef } from './vendor/preact-htm.js';
import { api, get } from './api.js';
import { useAction, useLoad, Problem, Loading, Address, Ports } from './ui.js';
import { Highlighted } from './hujson-highlight.js';

/**
 * The lines to mark in the gutter for a refusal: the line the server's problem names ({@code line}, {@code column}:
 * where an unknown group, user, tag or host stands, or a syntax error), and any a text names ("line 12", "12:5").
 */
export function errorLines(error) {
  const lines = new Set();
  if (error && error.problem && error.problem.line) lines.add(error.problem.line);
  for (const found of ((error && error.message) || '').matchAll(/\bline (\d+)|(?:^|\s)(\d+):\d+\b/g)) {
    lines.add(Number(found[1] || found[2]));
  }
  return lines;
}

/**
 * The policy text area over a coloured copy of its text (hujson-highlight.js): the text area stays the labelled
 * control that takes every key and shows the caret and selection; its own text is transparent, so what shows is the
 * copy beneath, which scrolls with it, as the line numbers do.
 */
function Editor({ text, onInput, readOnly, marked }) {
  const gutter = useRef(null);
  const layer = useRef(null);
  const count = text.split('\n').length;
  const sync = (e) => {
    if (gutter.current) gutter.current.scrollTop = e.target.scrollTop;
    if (layer.current) {
      layer.current.scrollTop = e.target.scrollTop;
      layer.current.scrollLeft = e.target.scrollLeft;
    }
  };
  // The copy ends with one more line, so that it can scroll as far as the text area (whose scroll bar takes room).
  return html`<div class="editor">
    <pre class="gutter mono" aria-hidden="true" ref=${gutter}>${Array.from({ length: count }, (_, i) =>
      html`<span class=${marked.has(i + 1) ? 'err' : ''}>${i + 1}${'\n'}</span>`)}</pre>
    <div class="code">
      <pre class="highlight mono" aria-hidden="true" ref=${layer}><${Highlighted} text=${text + '\n '} /></pre>
      <textarea id="policy-text" class="mono" spellcheck="false" readOnly=${readOnly} value=${text}
        aria-label="Policy (HuJSON)" aria-describedby="policy-status"
        onInput=${(e) => { onInput(e.target.value); sync(e); }} onScroll=${sync}></textarea>
    </div>
  </div>`;
}

/**
 * Selects a line of the policy text and puts it in view; with a column, puts the caret there instead (a selection
 * would hide the value behind its colour).
 */
function goToLine(line, column) {
  const field = document.getElementById('policy-text');
  if (!field) return;
  const lines = field.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  field.focus();
  if (column) field.setSelectionRange(start + column - 1, start + column - 1);
  else field.setSelectionRange(start, start + (lines[line - 1] || '').length);
}

/** A link to the place of a refusal the server placed (line and column of its problem). */
function ErrorPlace({ error }) {
  const where = error && error.problem && error.problem.line ? error.problem : null;
  if (!where) return null;
  return html`<p class="error-place"><button type="button" class="link" data-error-line=${where.line}
    onClick=${() => goToLine(where.line, where.column)}>Go to line ${where.line}, column ${where.column}</button></p>`;
}

/** What a chosen machine may reach under the text in the editor (not saved) or the saved policy. */
function Preview({ text, action }) {
  const [nodes, loadError] = useLoad(() => get('node').then((data) => data.nodes
    .slice().sort((a, b) => a.name.localeCompare(b.name))), []);
  const [node, setNode] = useState('');
  const [which, setWhich] = useState('editor');
  const [country, setCountry] = useState('');
  const [result, setResult] = useState(null);
  const chosen = node || (nodes && nodes.length ? nodes[0].id : '');
  const run = (e) => {
    e.preventDefault();
    action.run(async () => {
      const body = which === 'editor' ? { node: chosen, policy: text } : { node: chosen };
      // For ip:country posture conditions: where to suppose the machine is, instead of where it is placed.
      if (country.trim()) body.country = country.trim();
      const answer = await api('POST', 'policy/preview', body);
      setResult({ ...answer.body, which, text, country: body.country, name: nodes.find((n) => n.id === chosen).name });
    });
  };
  const names = new Map();
  for (const n of nodes || []) [n.ipv4, n.ipv6].filter(Boolean).forEach((address) => names.set(address, n.name));
  return html`<section aria-labelledby="preview-title">
    <h2 id="preview-title">What may a machine reach?</h2>
    <${Problem} error=${loadError} />
    ${nodes && nodes.length === 0 && html`<p class="muted">No machines yet.</p>`}
    ${nodes && nodes.length > 0 && html`<form class="row" onSubmit=${run}>
      <div><label for="preview-machine">Machine</label>
        <select id="preview-machine" value=${chosen} onChange=${(e) => setNode(e.target.value)}>
          ${nodes.map((n) => html`<option value=${n.id}>${n.name}</option>`)}</select></div>
      <div><label for="preview-country">In country (optional)</label>
        <input id="preview-country" size="4" maxLength="2" placeholder="GB" value=${country}
          aria-describedby="preview-country-hint" onInput=${(e) => setCountry(e.target.value)} />
        <small id="preview-country-hint" class="muted">for ip:country postures; empty: where it is</small></div>
      <fieldset class="choice"><legend>Under</legend>
        <label class="inline"><input type="radio" name="preview-policy" value="editor" checked=${which === 'editor'}
          onChange=${() => setWhich('editor')} /> the text in the editor</label>
        <label class="inline"><input type="radio" name="preview-policy" value="saved" checked=${which === 'saved'}
          onChange=${() => setWhich('saved')} /> the saved policy</label></fieldset>
      <button type="submit" disabled=${action.busy}>Preview</button>
    </form>`}
    <div id="preview-result" aria-live="polite">
      <${Problem} error=${action.error} />
      <${ErrorPlace} error=${action.error} />
      ${result && html`<h3>${result.name}${result.country ? ' in ' + result.country.toUpperCase() : ''} may reach${result.which === 'editor' ? ' under the text in the editor' : ' under the saved policy'}</h3>
        ${result.which === 'editor' && result.text !== text && html`<p class="notice">The text changed since this preview: preview again to see the change.</p>`}
        ${result.reach.length === 0 ? html`<p data-reach-empty>Nothing: no machine lets ${result.name} in.</p>`
          : html`<div class="table-wrap"><table class="responsive" aria-label=${'What ' + result.name + ' may reach'}>
            <thead><tr><th scope="col">Machine</th><th scope="col">What</th><th scope="col">Protocols</th></tr></thead>
            <tbody>${result.reach.flatMap((target) => target.rules.map((rule, i) => html`<tr key=${target.id + '-' + i} data-reach=${target.name}>
              <td data-label="Machine"><a href=${'#/machines/' + target.id}>${target.name}</a></td>
              <td data-label="What">${rule.destinations.map((dst) => html`<div><${Address} address=${dst.address} names=${names} /><${Ports} ports=${dst.ports} /></div>`)}</td>
              <td data-label="Protocols">${rule.protocols.join(', ')}</td></tr>`))}</tbody></table></div>`}
        ${result.rules.length > 0 && html`<p>Rules with ${result.name} among their sources:</p>
          <ul class="rules">${result.rules.map((rule) => html`<li>
            ${result.which === 'editor' && rule.line > 0 ? html`<button type="button" class="link" onClick=${() => goToLine(rule.line)}>line ${rule.line}</button>`
              : html`line ${rule.line}`}:${' '}<span class="mono">${rule.sources.join(', ')} → ${rule.destinations.join(', ')}${rule.via.length ? ' via ' + rule.via.join(', ') : ''}</span></li>`)}</ul>`}`}
    </div>
  </section>`;
}

export default function Policy({ may }) {
  const [saved, setSaved] = useState(undefined);
  const [text, setText] = useState('');
  const [result, setResult] = useState(null);
  const [conflict, setConflict] = useState(false);
  const action = useAction();
  const preview = useAction();
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
  const marked = errorLines(action.error || preview.error);
  return html`<h1>Access controls</h1>
    <p>Who may reach what, as HuJSON (JSON with comments and trailing commas). The policy's <code>tests</code> run
      before every save; a policy whose tests fail is not saved.</p>
    ${!canSave && html`<p class="notice">Your role may read the policy but not change it.</p>`}
    <${Editor} text=${text} onInput=${(value) => { setText(value); setResult(null); }} readOnly=${!canSave} marked=${marked} />
    <div id="policy-status" aria-live="polite">
      <${Problem} error=${action.error} />
      <${ErrorPlace} error=${action.error} />
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
    </div>
    ${may('devices:core:read') && html`<${Preview} text=${text} action=${preview} />`}`;
}
