// Server-sent events read from a model's streamed answer, as the `openai` package's Stream reads them (the same
// fields, line endings and end-of-stream rule), in one pass over the text. The package's reader copies everything
// not yet dispatched on each network chunk and runs three async generators per chunk: on a zero-latency server that
// was a larger share of a model call than the agent's whole loop, and one long event without a blank line cost
// time quadratic in its size.

/** What one event carried: its `event:` field (null when none) and its `data:` lines joined with newlines. */
export type SseHandler = (event: string | null, data: string) => void;

export class SseParser {
  private pending = '';
  /** A chunk ended on a CR: a LF starting the next one belongs to it. */
  private afterCR = false;
  private event: string | null = null;
  private data: string[] = [];

  constructor(
    private readonly onEvent: SseHandler,
    /** Each `data:` line's value as it is read (the raw stream recorder). */
    private readonly onData?: (value: string) => void,
  ) {}

  /** Text as decoded (a streaming TextDecoder's output): complete lines are read now, the rest kept. */
  push(text: string): void {
    let start = 0;
    if (this.afterCR && text.charCodeAt(0) === 10) start = 1;
    this.afterCR = false;
    const buffered = this.pending;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const line = start === 0 && this.pending ? this.pending + text.slice(0, i) : text.slice(start, i);
      this.pending = '';
      if (c === 13) {
        if (i + 1 === text.length) this.afterCR = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
      this.line(line);
    }
    this.pending = start === 0 ? buffered + text : text.slice(start);
  }

  /** The stream ended: a last line without its newline is read; an event without the blank line after it is not
   *  dispatched (as the SDK, and the SSE standard, leave it). */
  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  private line(line: string): void {
    if (!line) {
      if (this.event === null && !this.data.length) return;
      const data = this.data.join('\n');
      const event = this.event;
      this.event = null;
      this.data = [];
      this.onEvent(event, data);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' a comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.onData?.(value);
    } else if (field === 'event') this.event = value;
  }
}
