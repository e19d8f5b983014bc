// The name a model knows an attached file by, and how the upload note writes it. Qwen-Agent names a file by the
// basename of its URL (get_basename_from_url), which drops a query and a fragment: right for a URL, but it cuts a
// stored name such as "Invoice #42.pdf" at its "#". Here only an http(s) URL loses them; any other reference keeps
// its last path segment whole. In the note's markdown link a name with spaces, parentheses or brackets is written
// between angle brackets (CommonMark's form for such a link target), so the model reads where it ends; the document
// tools take the name back in any form the note could lead a model to write (nameFromLink).
import { fileURLToPath } from 'node:url';
import { safeFileName } from './file-name';

function lastSegment(p: string): string {
  return p.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? '';
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file name of an upload reference (`files/<sha256>/<name>`), a path, a file:// URL or an http(s) URL (its
 *  decoded last path segment, else its host). Not sanitised: tools/file-access.ts does that for a staged copy. */
export function attachmentName(source: string): string {
  if (/^https?:\/\//i.test(source)) {
    try {
      const url = new URL(source);
      return decoded(lastSegment(url.pathname)) || url.hostname;
    } catch {
      return lastSegment(source.replace(/[?#].*$/s, ''));
    }
  }
  if (/^file:\/\//i.test(source)) {
    try {
      return lastSegment(fileURLToPath(source));
    } catch {
      return decoded(lastSegment(source.slice('file://'.length)));
    }
  }
  return lastSegment(source) || source;
}

const NEEDS_BRACKETS = /[\s()<>[\]]/;

/** The name as a markdown link target: as it is, or `<name>` when it holds a character that would end or break a
 *  bare target. */
export function linkTarget(name: string): string {
  return NEEDS_BRACKETS.test(name) ? `<${name.replace(/[<>]/g, (c) => `\\${c}`)}>` : name;
}

/** A file name as a model may pass back what the note told it: the name itself, the `<name>` link target, or the
 *  whole `[file](…)` link. */
export function nameFromLink(text: string): string {
  let name = text.trim();
  const link = /^!?\[[^\]]*\]\((.*)\)$/s.exec(name);
  if (link) name = link[1]!.trim();
  const bracketed = /^<(.*)>$/s.exec(name);
  if (bracketed) name = bracketed[1]!.replace(/\\([<>])/g, '$1');
  return name;
}

/** Longest a numbered name gets: what safeFileName keeps whole, so the number is never cut off. */
const MAX_NUMBERED_LENGTH = 200;

/** `name` numbered as a file manager numbers a copy: "notes (2).txt", "notes (3).txt"… the first `taken` does not
 *  hold (an extension stays at the end; a long stem is shortened to make room for the number). */
export function numberedFileName(name: string, taken: (candidate: string) => boolean): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 && name.length - dot <= 20 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) {
    const number = ` (${n})`;
    const candidate = `${stem.slice(0, MAX_NUMBERED_LENGTH - number.length - ext.length)}${number}${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The name each attached file goes by in one run, in the order given (the conversation's files, then an agent's
 * own): its attachmentName, or when an earlier file already goes by that name (two folders' "notes.txt", an agent's
 * document and an upload), the name numbered. Staged under one name, the later file would overwrite the earlier
 * and never be read. Names compare as staged (sanitised), and a file's name depends only on the files before it,
 * so a name the model was told on one turn holds on the next.
 */
export function distinctNames(sources: readonly string[]): Map<string, string> {
  const key = safeFileName;
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const source of sources) {
    if (names.has(source)) continue;
    const own = attachmentName(source);
    const name = taken.has(key(own)) ? numberedFileName(own, (c) => taken.has(key(c))) : own;
    taken.add(key(name));
    names.set(source, name);
  }
  return names;
}
