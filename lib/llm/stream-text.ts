// Routes streamed content deltas into what a reader should see, incrementally (O(n) over the whole answer):
//   raw content -> cut at the first stop word -> split <think>...</think> into reasoning -> stop showing text where a
//   prompt-format tool call begins. Anything that might be the start of a marker is held back until it is decided.
// Each delta is searched in a window: the part not yet routed, and the last stop word's length before it. Searching
// the whole answer so far copied it at every delta (a string built by += is flattened to be searched), and every
// piece of text handed on kept its copy alive: 28 MB streamed in 64 KB deltas held gigabytes and took the server
// down. The whole answer is joined once, at the end.

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

export interface StreamTextOptions {
  stopWords?: readonly string[];
  /** Where a prompt-format tool call starts ('<tool_call>', '✿FUNCTION✿'); text after it is not shown. */
  toolStartMarker?: string;
  /** The server strips the opening <think> (the chat template adds it): content starts inside reasoning. */
  thoughtInContent?: boolean;
  /** Left out of the text when the content starts with one (the first that matches): the qwen format's prompt ends
   *  at "✿RETURN✿", so the model's answer starts with the ": " that follows it. */
  dropLeading?: readonly string[];
}

export interface StreamTextOutput {
  reasoning: string;
  text: string;
}

export interface StreamTextResult {
  /** Everything the server sent, before any cut. */
  raw: string;
  /** The content after the stop-word cut. */
  content: string;
  reasoning: string;
  /** The text shown to the reader (outside think blocks, before any tool call). */
  text: string;
  /** The part a prompt format parses for tool calls: the content after the last </think>; '' while a think is open. */
  toolSource: string;
  stoppedAtStopWord: boolean;
  /** What became visible only at the end (text held back while it could still have been a marker). */
  tail: StreamTextOutput;
}

/** Length of the longest suffix of `s` that is a proper prefix of one of `words`. */
function heldSuffix(s: string, words: readonly string[]): number {
  let best = 0;
  for (const w of words) {
    const max = Math.min(w.length - 1, s.length);
    for (let n = max; n > best; n--) {
      if (s.endsWith(w.slice(0, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}

/**
 * Qwen-Agent strips a trailing "partial stop word": the stop word without its last token (e.g. 'Observation' for
 * 'Observation:'). We approximate the last token as the final run of non-word characters, or the last character.
 */
export function partialStopWord(word: string): string {
  const m = /[^\p{L}\p{N}]+$/u.exec(word);
  return m && m.index > 0 ? word.slice(0, m.index) : word.slice(0, -1);
}

export class StreamTextRouter {
  /** The deltas as they came (joined once, by finish()), and their total length. */
  private readonly chunks: string[] = [];
  private length = 0;
  /** The raw content from index `base` on: all that is still searched (indices below are into the whole raw). */
  private window = '';
  private base = 0;
  private cut = -1; // index in raw of the first stop word
  private stopScanFrom = 0;
  private readonly stopWords: readonly string[];
  private readonly maxStop: number;
  private readonly toolMarker?: string;
  private readonly dropLeading: readonly string[];
  private leadDecided: boolean;

  // think/text state over the cut content
  private pos = 0; // how far the content has been routed
  private inThink: boolean;
  private toolStarted = false;
  private lastThinkEnd = 0;
  private reasoning = '';
  private text = '';

  constructor(opts: StreamTextOptions = {}) {
    this.stopWords = (opts.stopWords ?? []).filter((w) => w.length > 0);
    this.maxStop = Math.max(0, ...this.stopWords.map((w) => w.length));
    this.toolMarker = opts.toolStartMarker;
    this.inThink = Boolean(opts.thoughtInContent);
    this.dropLeading = (opts.dropLeading ?? []).filter((w) => w.length > 0);
    this.leadDecided = this.dropLeading.length === 0;
  }

  get stopped(): boolean {
    return this.cut >= 0;
  }

  /** Feed a content delta; returns what became visible. */
  push(delta: string): StreamTextOutput {
    if (this.stopped || !delta) return { reasoning: '', text: '' };
    this.chunks.push(delta);
    this.length += delta.length;
    this.window += delta;
    this.scanStop();
    const end = this.stopped ? this.cut : this.length - heldSuffix(this.window, this.stopWords);
    if (!this.decideLead(end, false)) return { reasoning: '', text: '' };
    const out = this.route(end, false);
    this.forgetRouted();
    return out;
  }

  /** Drops from the window what no later search needs: the routed part, but the last stop word's length. */
  private forgetRouted(): void {
    if (!this.leadDecided) return;
    const keepFrom = Math.min(this.pos, Math.max(0, this.length - this.maxStop));
    if (keepFrom <= this.base) return;
    this.window = this.window.slice(keepFrom - this.base);
    this.base = keepFrom;
  }

  /** Skips a leading prefix to drop once the content is long enough to tell; false while it cannot yet. */
  private decideLead(end: number, final: boolean): boolean {
    if (this.leadDecided) return true;
    const head = this.window.slice(0, end); // nothing is dropped from the window before the lead is decided
    const match = this.dropLeading.find((w) => head.startsWith(w));
    if (!final && !match && this.dropLeading.some((w) => w.startsWith(head))) return false;
    // A shorter prefix may match before a longer one could: wait until the longest one is decided too.
    if (!final && match && this.dropLeading.some((w) => w.length > match.length && w.startsWith(head))) return false;
    this.leadDecided = true;
    if (match) this.pos = match.length;
    return true;
  }

  /** The stream ended: release what was held back (minus a trailing partial stop word) and sum up. */
  finish(): StreamTextResult {
    let end = this.stopped ? this.cut : this.length;
    if (!this.stopped) {
      for (const w of this.stopWords) {
        const partial = partialStopWord(w);
        if (partial && this.window.endsWith(partial) && end - partial.length >= this.pos) {
          end -= partial.length;
          break;
        }
      }
    }
    this.decideLead(end, true);
    const tail = this.route(end, true);
    const raw = this.chunks.join('');
    const content = raw.slice(0, end);
    return {
      raw,
      content,
      reasoning: this.reasoning,
      text: this.text,
      toolSource: this.inThink ? '' : content.slice(this.lastThinkEnd),
      stoppedAtStopWord: this.stopped,
      tail,
    };
  }

  private scanStop(): void {
    if (!this.stopWords.length) return;
    const from = Math.max(0, this.stopScanFrom - this.maxStop) - this.base;
    let first = -1;
    for (const w of this.stopWords) {
      const i = this.window.indexOf(w, from);
      if (i >= 0 && (first < 0 || i < first)) first = i;
    }
    if (first >= 0) this.cut = this.base + first;
    this.stopScanFrom = this.length;
  }

  private route(end: number, final: boolean): StreamTextOutput {
    const out: StreamTextOutput = { reasoning: '', text: '' };
    const s = new Window(this.window, this.base);
    while (this.pos < end) {
      if (this.inThink) {
        const close = s.indexOf(THINK_CLOSE, this.pos);
        if (close >= 0 && close + THINK_CLOSE.length <= end) {
          out.reasoning += s.slice(this.pos, close);
          this.pos = close + THINK_CLOSE.length;
          this.lastThinkEnd = this.pos;
          this.inThink = false;
          continue;
        }
        const upTo = final ? end : end - heldSuffix(s.slice(this.pos, end), [THINK_CLOSE]);
        out.reasoning += s.slice(this.pos, upTo);
        this.pos = upTo;
        break;
      }
      if (this.toolStarted) {
        // Tool-call territory: only a later <think> matters (for toolSource bookkeeping).
        const open = s.indexOf(THINK_OPEN, this.pos);
        if (open >= 0 && open + THINK_OPEN.length <= end) {
          this.pos = open + THINK_OPEN.length;
          this.inThink = true;
          continue;
        }
        this.pos = end;
        break;
      }
      const open = s.indexOf(THINK_OPEN, this.pos);
      const tool = this.toolMarker ? s.indexOf(this.toolMarker, this.pos) : -1;
      const openOk = open >= 0 && open + THINK_OPEN.length <= end;
      const toolOk = tool >= 0 && tool + (this.toolMarker?.length ?? 0) <= end;
      if (openOk && (!toolOk || open < tool)) {
        out.text += s.slice(this.pos, open);
        this.pos = open + THINK_OPEN.length;
        this.inThink = true;
        continue;
      }
      if (toolOk) {
        out.text += s.slice(this.pos, tool);
        this.pos = tool;
        this.toolStarted = true;
        continue;
      }
      const markers = this.toolMarker ? [THINK_OPEN, this.toolMarker] : [THINK_OPEN];
      const upTo = final ? end : end - heldSuffix(s.slice(this.pos, end), markers);
      out.text += s.slice(this.pos, upTo);
      this.pos = upTo;
      break;
    }
    this.reasoning += out.reasoning;
    this.text += out.text;
    return out;
  }
}

/** The raw content from `base` on, read with indices into the whole of it. */
class Window {
  constructor(
    private readonly text: string,
    private readonly base: number,
  ) {}

  indexOf(search: string, from: number): number {
    const i = this.text.indexOf(search, from - this.base);
    return i < 0 ? -1 : i + this.base;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start - this.base, end - this.base);
  }
}
