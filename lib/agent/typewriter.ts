// typewriterPrint: Qwen-Agent's typewriter_print (qwen_agent/utils/output_beautify.py) for scripts. run() yields
// cumulative snapshots of the new messages; this renders a snapshot as one text (thinking, answer, each tool call and
// each result under upstream's markers) and writes only what the previous call had not written yet.
import { contentText, type Message } from '../llm/schema';

export const TYPEWRITER_MARKERS = {
  think: '[THINK]',
  answer: '[ANSWER]',
  toolCall: '[TOOL_CALL]',
  toolResponse: '[TOOL_RESPONSE]',
} as const;

/** The whole text of a snapshot, as typewriterPrint writes it. */
export function typewriterText(messages: readonly Message[]): string {
  const blocks: string[] = [];
  for (const msg of messages) {
    if (msg.role === 'assistant') {
      const reasoning = contentText(msg.reasoning_content);
      if (reasoning) blocks.push(`${TYPEWRITER_MARKERS.think}\n${reasoning}`);
      const text = contentText(msg.content);
      if (text) blocks.push(`${TYPEWRITER_MARKERS.answer}\n${text}`);
      if (msg.function_call)
        blocks.push(`${TYPEWRITER_MARKERS.toolCall} ${msg.function_call.name}\n${msg.function_call.arguments}`);
    } else if (msg.role === 'function') {
      blocks.push(`${TYPEWRITER_MARKERS.toolResponse} ${msg.name ?? ''}\n${contentText(msg.content)}`);
    }
    // Upstream raises on other roles; a run's new messages have none, and a caller's input is not printed.
  }
  return blocks.join('\n');
}

/**
 * Writes the part of `messages`' text that `printed` (what the previous call returned) does not hold yet, and
 * returns the whole text for the next call:
 *
 *   let printed = '';
 *   for await (const messages of agent.run(input)) printed = typewriterPrint(messages, printed);
 */
export function typewriterPrint(
  messages: readonly Message[],
  printed: string,
  write: (text: string) => void = (text) => process.stdout.write(text),
): string {
  const text = typewriterText(messages);
  if (text.length > printed.length) write(text.slice(printed.length));
  return text.length ? text : printed;
}
