// Durations as people type them: Go's syntax (12h, 1h30m), days and weeks (30d, 2w) and words (90 days, 1 week),
// the forms the CLI and the desktop app read with the api module's HumanDuration. The /api/v1 wire keeps Go's syntax,
// so a form sends toGo(what was typed). A field offers presets and "other" for anything else.
import { html } from './vendor/preact-htm.js';

const SECOND = 1;
const UNITS = new Map([
  ...['s', 'sec', 'secs', 'second', 'seconds'].map((u) => [u, SECOND]),
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((u) => [u, 60]),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((u) => [u, 3600]),
  ...['d', 'day', 'days'].map((u) => [u, 86400]),
  ...['w', 'wk', 'wks', 'week', 'weeks'].map((u) => [u, 7 * 86400]),
]);
const EXAMPLES = 'use e.g. 30d, 2w, 90 days, 12h or 1h30m';

/** Seconds in what was typed; throws an Error a person can act on. */
export function parseDuration(text) {
  const rest = (text || '').trim().toLowerCase();
  if (!rest) throw new Error('no duration given (' + EXAMPLES + ')');
  if (rest === '0') return 0;
  let seconds = 0;
  const part = /\s*(?:,|and\s)?\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-z]+)/y;
  let at = 0;
  while (at < rest.length) {
    part.lastIndex = at;
    const found = part.exec(rest);
    if (!found) throw new Error('not a duration: "' + text.trim() + '" (' + EXAMPLES + ')');
    const unit = UNITS.get(found[2]);
    if (unit === undefined) {
      throw new Error('unknown unit "' + found[2] + '" in duration "' + text.trim() + '"'
        + (/^(mo|y)/.test(found[2]) ? ' (months and years vary in length: use days, e.g. 30d or 365d)' : ' (' + EXAMPLES + ')'));
    }
    seconds += Number(found[1]) * unit;
    at = part.lastIndex;
  }
  return seconds;
}

/** Go's syntax for the /api/v1 wire (30d is 720h); null for nothing typed, so the server's default applies. */
export function toGo(text) {
  if (!text || !text.trim()) return null;
  const total = Math.floor(parseDuration(text));
  if (total === 0) return '0s';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return (h ? h + 'h' : '') + (m ? m + 'm' : '') + (s ? s + 's' : '');
}

/** For people: "90 days", "1 week", "12 hours". */
export function describe(text) {
  const seconds = parseDuration(text);
  const plural = (n, unit) => n + ' ' + unit + (n === 1 ? '' : 's');
  if (seconds > 0 && seconds % (7 * 86400) === 0 && seconds / (7 * 86400) < 5) return plural(seconds / (7 * 86400), 'week');
  if (seconds > 0 && seconds % 86400 === 0) return plural(seconds / 86400, 'day');
  if (seconds > 0 && seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds > 0 && seconds < 3600 && seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return toGo(text);
}

/** Presets for key lifetimes. */
export const KEY_PRESETS = ['1 hour', '1 day', '7 days', '30 days', '90 days'];

/**
 * A duration field: a choice of presets and "other", which shows a text field for any form above. `value` is the
 * text as typed or chosen; `onChange` gets the new text.
 */
export function DurationField({ id, label, value, onChange, presets, required }) {
  const preset = presets.find((p) => same(p, value));
  const other = preset === undefined;
  return html`<div class="duration-field"><label for=${id}>${label}</label>
    <select id=${id} value=${other ? '' : preset} onChange=${(e) => onChange(e.target.value || '')}>
      ${presets.map((p) => html`<option value=${p}>${p}</option>`)}
      <option value="">other…</option>
    </select>
    ${other && html`<label class="skip" for=${id + '-other'}>${label}: other duration</label>
      <input id=${id + '-other'} size="8" value=${value} required=${required} placeholder="30d, 2w, 1h30m"
        aria-describedby=${id + '-hint'} onInput=${(e) => onChange(e.target.value)} />
      <span id=${id + '-hint'} class="muted">e.g. 30d, 2w, 90 days, 1h30m</span>`}
  </div>`;
}

function same(preset, value) {
  try {
    return parseDuration(preset) === parseDuration(value);
  } catch (e) {
    return false;
  }
}
