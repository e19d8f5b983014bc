import type { Message } from '../../llm/schema';

/** The conversation's system message with `text` added at its end (a system message of `text` alone when there is
 *  none), and the messages after it. */
export function systemWith(messages: readonly Message[], text: string): [Message, Message[]] {
  const [first, ...rest] = messages;
  if (first?.role !== 'system') return [{ role: 'system', content: text }, [...messages]];
  const content =
    typeof first.content === 'string' ? `${first.content}\n\n${text}` : [...first.content, { text: `\n\n${text}` }];
  return [{ ...first, content }, rest];
}
