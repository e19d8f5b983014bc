// A provider's error message may repeat the key it was sent ("Incorrect API key provided: sk-abc…xyz"): the key is a
// stored secret (the server's, or a connection's) and must not reach whoever reads a run's error.

/** What stands where a key, part of one or its masked form was. */
export const KEY_REDACTED = '[key hidden]';

/** The shortest run of a key's characters that is hidden wherever it appears. */
const MIN_PART = 8;

// A masked key as providers print it: visible ends around `***`, `...` or `…` (OpenAI: `sk-proj-****…abcd`).
const MASK = /\*{3,}|\.{3}|…/;
const MASKED = /[\w-]*(?:\*{3,}|\.{3}|…)[\w-]*/g;

/**
 * `text` with `key` hidden: the whole key, any run of 8 or more of its characters in order, and a masked form whose
 * visible ends are the key's own beginning and end. A key shorter than 8 characters is hidden only where it stands
 * alone (the `k` of a test server's key is not cut out of "broken").
 */
export function redactKey(text: string, key: string | undefined): string {
  if (!key || !text) return text;
  if (key.length < MIN_PART) return text.replace(wholeToken(key), KEY_REDACTED);
  // The whole key is a run of its pieces too: hideParts takes it.
  return hideParts(
    text.replace(MASKED, (token) => (isMaskOf(token, key) ? KEY_REDACTED : token)),
    key,
  );
}

/** Every run of `text` made of overlapping MIN_PART-long pieces of `key`, replaced. Linear in the text. */
function hideParts(text: string, key: string): string {
  const pieces = new Set<string>();
  for (let i = 0; i + MIN_PART <= key.length; i++) pieces.add(key.slice(i, i + MIN_PART));
  const hidden = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + MIN_PART <= text.length; i++) {
    if (!pieces.has(text.slice(i, i + MIN_PART))) continue;
    hidden.fill(1, i, i + MIN_PART);
    any = true;
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!hidden[i]) out += text[i];
    else if (i === 0 || !hidden[i - 1]) out += KEY_REDACTED;
  }
  return out;
}

/** `key` standing alone: not inside a longer run of letters, digits, `_` or `-`. */
function wholeToken(key: string): RegExp {
  return new RegExp(`(?<![\\w-])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g');
}

/** Whether a masked token (`sk-abc...xyz`) shows only the key's own ends, and at least 3 of its characters. */
function isMaskOf(token: string, key: string): boolean {
  const parts = token.split(MASK);
  const head = parts[0] ?? '';
  const tail = parts[parts.length - 1] ?? '';
  return head.length + tail.length >= 3 && key.startsWith(head) && key.endsWith(tail);
}
