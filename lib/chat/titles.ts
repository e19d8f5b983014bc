// A new conversation's title, made by its model from the first exchange (CONVERSATION_TITLES=model): a few words in
// the user's language, asked in the background once the first answer is in, so it never holds the answer back. When
// the model fails or says nothing usable, the conversation keeps the title its first message gave it (titleFrom).
import type { ChatModel } from '../llm/model';
import { contentText, type Message } from '../llm/schema';

/** At most this many characters of the question and the answer go to the model. */
const EXCERPT = 1500;
/** A title is cut to this many characters (as titleFrom). */
const MAX_TITLE = 60;
/** How long the title request may take; past it the first message's title stays. */
export const TITLE_TIMEOUT_MS = 20_000;

const INSTRUCTION =
  'You name conversations for a list of chats. Reply with a title of three to six words that says what the ' +
  'conversation below is about, in the language the user wrote in. Reply with the title only: no quotes, no ' +
  'final period, no explanation.';

function excerpt(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > EXCERPT ? `${clean.slice(0, EXCERPT)}…` : clean;
}

/** The model's reply as a title: its first line, without quotes, a "Title:" label or a final period; undefined
 *  when nothing usable is left. */
export function cleanTitle(raw: string): string | undefined {
  const line = raw
    .replace(/<think>[\s\S]*?(<\/think>|$)/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!line) return undefined;
  const title = line
    .replace(/^(title|标题)\s*[:：]\s*/i, '')
    // Markdown inside the line (a title shows as plain text): "is **397.8**", "the `ls` flags".
    .replace(/(\*\*|__|`)(.+?)\1/g, '$2')
    .replace(/\*([^*\s](?:[^*]*[^*\s])?)\*/g, '$1')
    .replace(/^[#*"'“”‘’«»「」『』《》\s]+|[*"'“”‘’«»「」『』《》.。!！\s]+$/g, '')
    .trim();
  if (!title) return undefined;
  const chars = Array.from(title);
  return chars.length > MAX_TITLE ? `${chars.slice(0, MAX_TITLE - 1).join('')}…` : title;
}

/** The title the model gives the exchange, or undefined when it fails or gives nothing usable. Never throws. */
export async function modelTitle(
  llm: ChatModel,
  exchange: { question: string; answer: string },
  signal?: AbortSignal,
): Promise<string | undefined> {
  const messages: Message[] = [
    { role: 'system', content: INSTRUCTION },
    {
      role: 'user',
      content: `User: ${excerpt(exchange.question)}\n\nAssistant: ${excerpt(exchange.answer)}\n\nTitle:`,
    },
  ];
  try {
    const result = await llm.chat({
      messages,
      signal: signal ?? AbortSignal.timeout(TITLE_TIMEOUT_MS),
      cfg: { max_tokens: 48, max_retries: 0, request_timeout_ms: TITLE_TIMEOUT_MS },
    });
    const text = result.messages
      .filter((m) => m.role === 'assistant' && !m.function_call)
      .map((m) => contentText(m.content))
      .join('\n');
    return cleanTitle(text);
  } catch {
    return undefined;
  }
}
