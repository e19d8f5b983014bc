// What a ParallelDocQA reader said about its excerpt. Readers are asked for upstream's JSON, {"res": "ans",
// "content": "<answer>"} or {"res": "none", "content": "<None>"}; a model that writes something else is read the way
// upstream reads it: a "none" or an apology anywhere means nothing was found, other text is taken as the answer
// with the JSON's punctuation removed. Nothing a reader writes is an error.
import { parseKeywordJson } from '../keygen/keyword-json';

/** What a reader writes when its excerpt does not answer the question (upstream's NO_RESPONSE). */
export const NO_RESPONSE = '<None>';

export type ReaderVerdict = { found: true; content: string } | { found: false };

/** Signs of "nothing here" in output that is not the JSON asked for (checked without regard to case). */
const NOTHING_MARKERS = ['很抱歉', NO_RESPONSE.toLowerCase(), '"res": "none"', '"res":"none"'];

export function readerVerdict(output: string): ReaderVerdict {
  const text = output.trim();
  if (!text) return { found: false };
  const json = parseKeywordJson(text);
  if (json && (json.res === 'ans' || json.res === 'none') && typeof json.content === 'string') {
    const content = json.content.trim();
    if (json.res === 'none' || !content || content === NO_RESPONSE) return { found: false };
    return { found: true, content };
  }
  const lower = text.toLowerCase();
  if (NOTHING_MARKERS.some((m) => lower.includes(m))) return { found: false };
  const cleaned = text
    .replace(/"res"\s*:\s*"(?:ans|none)"\s*,?/g, '')
    .replace(/"content"\s*:\s*/g, '')
    .replace(/```(?:json)?/g, '')
    .replace(/[{}"]/g, '')
    .trim();
  return cleaned ? { found: true, content: cleaned } : { found: false };
}
