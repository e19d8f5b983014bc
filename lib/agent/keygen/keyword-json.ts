// Reading what a keyword strategy wrote: JSON, perhaps in a ```json fence, perhaps not JSON at all (a model that
// ignored the format). What cannot be read leaves the search to the question itself, as upstream does.
import { parseJson5, pyJsonDumps } from '../../llm/fncall/json-slice';
import { isPlainObject } from '../../protocol/json';

/** The text without the ```json fence a model may have put around it. */
export function withoutJsonFence(text: string): string {
  let out = text.trim();
  if (out.startsWith('```json')) out = out.slice('```json'.length);
  else if (out.startsWith('```')) out = out.slice(3);
  if (out.endsWith('```')) out = out.slice(0, -3);
  return out.trim();
}

/** The JSON object a strategy wrote, or undefined when it wrote something else. */
export function parseKeywordJson(text: string): Record<string, unknown> | undefined {
  const parsed = parseJson5(withoutJsonFence(text));
  return parsed.ok && isPlainObject(parsed.value) ? parsed.value : undefined;
}

/** SplitQuery's information pieces, one per line, or undefined when there are none (or no JSON). */
export function splitQueryInformation(text: string): string | undefined {
  const info = parseKeywordJson(text)?.information;
  if (!Array.isArray(info)) return undefined;
  const joined = info
    .filter((s): s is string => typeof s === 'string')
    .join('\n')
    .trim();
  return joined || undefined;
}

/**
 * The search query a strategy's answer makes for `question`: its JSON with the text to search ("text": the question,
 * unless the strategy gave one, or SplitQuery's information when it is shorter), Python-spaced as upstream writes it;
 * the question itself when the answer is not JSON.
 */
export function keywordQuery(answer: string, question: string): string {
  const dict = parseKeywordJson(answer);
  if (!dict) return question;
  if (typeof dict.text !== 'string') {
    const information = splitQueryInformation(answer);
    dict.text = information && information.length <= question.length ? information : question;
  }
  return pyJsonDumps(dict);
}
