// What each recorded SSE chunk of a model call carried, for the inspector's "Raw stream": the chunk where the first
// token arrived, those with a tool-call delta, the one with the finish reason, and `[DONE]`. Chunks are read as the
// OpenAI chat-completion chunk shape; one that is not JSON is shown as it came, unmarked.
import type { RawStream } from '../protocol/events';
import { isPlainObject } from '../protocol/json';

export type ChunkMark = 'first-token' | 'tool-call' | 'finish' | 'usage' | 'done';

export interface MarkedChunk {
  t: number;
  data: string;
  marks: ChunkMark[];
  /** The finish reason, on the chunk that carried it. */
  finishReason?: string;
}

export function markRawStream(stream: RawStream): MarkedChunk[] {
  let tokenSeen = false;
  return stream.chunks.map(({ t, data }) => {
    const marks: ChunkMark[] = [];
    let finishReason: string | undefined;
    if (data.trim() === '[DONE]') marks.push('done');
    else {
      const chunk = parse(data);
      const choice = Array.isArray(chunk?.choices) && isPlainObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
      const delta = choice && isPlainObject(choice.delta) ? choice.delta : undefined;
      const text = [delta?.content, delta?.reasoning_content, delta?.reasoning].some((v) => typeof v === 'string' && v);
      const toolCalls = Array.isArray(delta?.tool_calls) && delta.tool_calls.length > 0;
      if (!tokenSeen && (text || toolCalls)) {
        tokenSeen = true;
        marks.push('first-token');
      }
      if (toolCalls) marks.push('tool-call');
      if (typeof choice?.finish_reason === 'string') {
        finishReason = choice.finish_reason;
        marks.push('finish');
      }
      if (isPlainObject(chunk?.usage)) marks.push('usage');
    }
    return finishReason === undefined ? { t, data, marks } : { t, data, marks, finishReason };
  });
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(data);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
