// HuJSON syntax colouring for the policy editor: a small tokenizer (JSON with // and /* */ comments and trailing
// commas) and the coloured copy of the text that lies under the editor's text area.
import { html } from './vendor/preact-htm.js';

// Each at the current position (sticky); the first that matches wins. Unterminated strings and comments run to the
// end of their line (a string) or of the text (a block comment), as a person is still typing them.
const LEXEMES = [
  ['space', /\s+/y],
  ['comment', /\/\/[^\n]*/y],
  ['comment', /\/\*[\s\S]*?(?:\*\/|$)/y],
  ['string', /"(?:[^"\\\n]|\\.)*(?:"|$)/my],
  ['number', /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y],
  ['literal', /(?:true|false|null)\b/y],
  ['punct', /[{}[\]:,]/y],
  ['plain', /[^\s{}[\]:,"/]+|\//y],
];

/**
 * The text cut into tokens, [type, text] each, whose texts put together are the text again. Types: space, comment,
 * string, key (a string before a colon), number, literal (true, false, null), punct ({ } [ ] : ,), plain (anything
 * else).
 */
export function tokenize(text) {
  const tokens = [];
  let at = 0;
  while (at < text.length) {
    const start = at;
    for (const [type, pattern] of LEXEMES) {
      pattern.lastIndex = at;
      const found = pattern.exec(text);
      if (found && found[0].length > 0) {
        tokens.push([type, found[0]]);
        at += found[0].length;
        break;
      }
    }
    if (at === start) tokens.push(['plain', text[at++]]); // cannot happen: plain takes any other character
  }
  // A string is a key when the next token that is neither space nor comment is a colon.
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i][0] !== 'string') continue;
    let next = i + 1;
    while (next < tokens.length && (tokens[next][0] === 'space' || tokens[next][0] === 'comment')) next++;
    if (next < tokens.length && tokens[next][1] === ':') tokens[i][0] = 'key';
  }
  return tokens;
}

/** The text coloured: one span per token with the class hj-<type>, space and plain text as they are. */
export function Highlighted({ text }) {
  return tokenize(text).map(([type, part]) => (type === 'space' || type === 'plain'
    ? part : html`<span class=${'hj-' + type}>${part}</span>`));
}
