// `web_extractor`: fetch a page through the SSRF guard and return its title and readable text.
import { safeFetch } from '../lib/net/safe-fetch';
import { BaseTool, type ToolContext } from './base-tool';
import { registerTool } from './registry';
import { settingsOf } from './settings';

/** The text given to the model is cut here (the page may be far longer than a useful context). */
export const MAX_TEXT_CHARS = 40_000;

function charset(contentType: string): string {
  const m = /charset=["']?([\w-]+)/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : 'utf-8';
}

function decode(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charset(contentType)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export class WebExtractorTool extends BaseTool {
  name = 'web_extractor';
  description = 'Fetch a web page (http or https) and return its title and main text.';
  parameters = {
    type: 'object',
    properties: { url: { type: 'string', description: 'The address of the page' } },
    required: ['url'],
  };

  async call(params: string, ctx: ToolContext): Promise<string> {
    const { url } = this.parseArgs<{ url: string }>(params);
    const policy = settingsOf(ctx).webFetch;
    const res = await safeFetch(url.trim(), {
      ...policy,
      signal: ctx.signal,
      oversize: 'truncate',
      headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' },
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`${res.url} answered HTTP ${res.status}`);
    const type = String(res.headers['content-type'] ?? '').toLowerCase();
    const raw = decode(res.body, type);
    let title = '';
    let text: string;
    if (!type || type.includes('html') || type.includes('xml')) {
      // Off the main thread, under a time limit: a hostile page must not stall the server for everyone. (Loaded when
      // a page is read.)
      const { readablePageOffThread } = await import('../lib/documents/parse-pool');
      ({ title, text } = await readablePageOffThread(raw));
    } else if (type.startsWith('text/') || type.includes('json')) text = raw.trim();
    else throw new Error(`${res.url} is not a web page (content-type ${type}); web_extractor reads HTML and text.`);
    const notes: string[] = [];
    if (res.truncated) notes.push(`(only the first ${policy.maxBytes} bytes of the page were read)`);
    if (text.length > MAX_TEXT_CHARS) {
      text = text.slice(0, MAX_TEXT_CHARS);
      notes.push(`(text cut at ${MAX_TEXT_CHARS} characters)`);
    }
    const head = [`URL: ${res.url}`, title ? `Title: ${title}` : ''].filter(Boolean).join('\n');
    return [head, text || '(no readable text)', ...notes].join('\n\n');
  }
}
registerTool('web_extractor')(WebExtractorTool);
