// Images a tool produced, given back to the model (generate_cfg.tool_images; Qwen-Agent puts them in the function
// message). Only the latest step's are sent: the results at the end of the history, which the next model call reads
// first. Earlier steps' images stay in the history as their text ("[image: …]", the file names), so a long run does
// not send every chart again on every call.
import type { Message } from './schema';

/** Where the latest step's tool results start: the trailing run of function messages (the length when none). */
export function latestStepStart(messages: readonly Message[]): number {
  let i = messages.length;
  while (i > 0 && messages[i - 1]!.role === 'function') i--;
  return i;
}

/** Image items of the latest step's tool results. */
export function countStepImages(messages: readonly Message[]): number {
  let n = 0;
  for (let i = latestStepStart(messages); i < messages.length; i++) {
    const content = messages[i]!.content;
    if (typeof content !== 'string') for (const item of content) if (item.image) n++;
  }
  return n;
}
