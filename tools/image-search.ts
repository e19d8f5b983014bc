// `image_search`: Qwen-Agent's reverse image search, through SerpAPI's google_reverse_image engine
// (SERPAPI_IMAGE_SEARCH_KEY, upstream's variable; SERPAPI_URL for another address of the same API). The model names
// an image of the conversation by its index; the search provider must fetch that image itself, so only an image on
// the web (an http(s) URL) can be searched. Results come back as text (title, image address, source page, snippet):
// the server reaches nothing but the configured endpoint, so the images found are neither fetched nor checked.
// Offered only when the key is configured.
import type { ImageSearchEnvConfig } from '../lib/config';
import { redactKey } from '../lib/llm/redact-key';
import { answerTooLarge, limitBody, responseTooLargeIn } from '../lib/net/bounded-body';
import { BaseTool, type ToolContext } from './base-tool';
import { imagesInMessages } from './conversation-images';
import { registerTool } from './registry';
import { settingsOf, type ToolSettings } from './settings';
import { SEARCH_ANSWER_MAX_BYTES } from './web/search-providers';

const TIMEOUT_MS = 20_000;
/** Results listed at most. */
export const MAX_IMAGE_RESULTS = 10;

type Json = Record<string, unknown>;

export interface ImageResult {
  title: string;
  imageUrl: string;
  pageUrl: string;
  snippet: string;
}

async function searchOnce(cfg: ImageSearchEnvConfig, imageUrl: string, lang: string, signal?: AbortSignal) {
  const url = new URL(cfg.url);
  url.searchParams.set('engine', 'google_reverse_image');
  url.searchParams.set('image_url', imageUrl);
  url.searchParams.set('api_key', cfg.key);
  url.searchParams.set('hl', lang === 'zh' ? 'zh-CN' : 'en');
  if (lang === 'zh') url.searchParams.set('gl', 'cn');
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const res = limitBody(
    await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout }),
    SEARCH_ANSWER_MAX_BYTES,
  );
  // What SerpAPI says goes to the model and the page: never the server's key, should it repeat it.
  if (!res.ok) {
    const body = redactKey((await res.text().catch(() => '')).slice(0, 200), cfg.key);
    throw Object.assign(new Error(`SerpAPI answered HTTP ${res.status}${body ? `: ${body}` : ''}`), {
      status: res.status,
    });
  }
  const data = (await res.json().catch((e: unknown) => {
    // Not tried again: the next answer would be as long.
    if (responseTooLargeIn(e)) throw Object.assign(answerTooLarge('SerpAPI', SEARCH_ANSWER_MAX_BYTES), { status: 413 });
  })) as Json | undefined;
  if (!data) throw new Error('SerpAPI did not answer JSON');
  if (typeof data.error === 'string')
    throw Object.assign(new Error(`SerpAPI: ${redactKey(data.error, cfg.key)}`), { status: 400 });
  return data;
}

/** The results of a SerpAPI answer: image results then inline images, each image address once. */
export function imageResults(data: Json): ImageResult[] {
  const items = [
    ...((data.image_results as Json[] | undefined) ?? []),
    ...((data.inline_images as Json[] | undefined) ?? []),
  ];
  const byImage = new Map<string, ImageResult>();
  for (const item of items) {
    const imageUrl = String(item.original ?? item.thumbnail ?? '');
    if (!/^https?:\/\//i.test(imageUrl)) continue;
    const result = {
      title: String(item.title ?? ''),
      imageUrl,
      pageUrl: String(item.link ?? item.source ?? ''),
      snippet: String(item.snippet ?? ''),
    };
    const kept = byImage.get(imageUrl);
    if (!kept || kept.title.length < result.title.length) byImage.set(imageUrl, result);
  }
  return [...byImage.values()].slice(0, MAX_IMAGE_RESULTS);
}

export class ImageSearch extends BaseTool {
  name = 'image_search';
  description =
    "Reverse image search: finds images like one of the conversation's images on the web, with their titles and pages.";
  parameters = {
    type: 'object',
    properties: {
      img_idx: {
        type: 'integer',
        minimum: 0,
        description: 'Which image of the conversation, counting from 0 in the order they appeared.',
      },
    },
    required: ['img_idx'],
  };

  /** Not offered to the model until SERPAPI_IMAGE_SEARCH_KEY is set. */
  static unavailableReason(settings: ToolSettings): string | undefined {
    return settings.imageSearch
      ? undefined
      : 'no image search key: set SERPAPI_IMAGE_SEARCH_KEY in the server environment.';
  }

  async call(params: string, ctx: ToolContext) {
    const { img_idx: index } = this.parseArgs<{ img_idx: number }>(params);
    const cfg = settingsOf(ctx).imageSearch;
    if (!cfg)
      throw new Error('image_search is not configured: set SERPAPI_IMAGE_SEARCH_KEY in the server environment.');
    const images = imagesInMessages(ctx.messages);
    if (!images.length) throw new Error('The conversation has no image to search for.');
    // As upstream: an index past the end means the last image.
    const ref = images[Math.min(index, images.length - 1)]!;
    if (!/^https?:\/\//i.test(ref))
      throw new Error(
        'Only an image on the web (an http or https address) can be searched: the search provider must fetch it, and an uploaded image is not on the web.',
      );
    let last: unknown;
    for (let attempt = 1; attempt <= cfg.maxAttempts; attempt++) {
      try {
        const results = imageResults(await searchOnce(cfg, ref, ctx.lang, ctx.signal));
        if (!results.length) return 'No similar image was found.';
        return results
          .map((r, i) =>
            [
              `[${i + 1}] ${r.title || '(untitled)'}`,
              `image: ${r.imageUrl}`,
              r.pageUrl && `page: ${r.pageUrl}`,
              r.snippet,
            ]
              .filter(Boolean)
              .join('\n'),
          )
          .join('\n\n');
      } catch (e) {
        last = e;
        const status = (e as { status?: number }).status;
        // A refusal (a bad key, a bad request) is not retried; a network failure or a server error is.
        if (ctx.signal?.aborted || (status !== undefined && status < 500 && status !== 429)) break;
      }
    }
    throw last instanceof Error ? last : new Error(String(last));
  }
}

registerTool('image_search')(ImageSearch);
