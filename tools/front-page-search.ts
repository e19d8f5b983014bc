// `front_page_search`: Qwen-Agent's searcher that puts a document's opening first (its title page, its abstract),
// whatever the query: of a single document, the first two chunks, each while both still take at most a quarter of
// the max_ref_token budget. Around it the rules every upstream searcher shares: no query, the beginning of each
// document (the budget split evenly); everything when all of it fits the budget; with several documents the front
// page says nothing (upstream's choice: the documents' openings are not comparable), and nothing is returned.
// Returns Qwen-Agent's [{url, text: [chunks]}]. The Assistant's own search fuses this ranking with BM25.
import { truncateTokens } from '../lib/llm/tokens';
import type { ToolContext } from './base-tool';
import { pickFilesOrAll } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { DOCUMENT_TYPES, ragSettings } from './retrieval';
import { registerTool } from './registry';
import { settingsOf } from './settings';

/** Upstream's DEFAULT_FRONT_PAGE_NUM. */
export const FRONT_PAGE_CHUNKS = 2;

interface Doc {
  name: string;
  chunks: { content: string; tokens: number }[];
}

/** The chunks front_page_search takes from `docs` for `query` within `budget` tokens, per document. */
export function frontPageChunks(
  docs: readonly Doc[],
  query: string,
  budget: number,
): { url: string; text: string[] }[] {
  if (!docs.length) return [];
  const out = (picked: string[][]) =>
    docs.map((d, i) => ({ url: d.name, text: picked[i]! })).filter((d) => d.text.length > 0);
  if (!query.trim()) {
    const share = Math.floor(budget / docs.length);
    return out(docs.map((d) => fill(d.chunks, share)));
  }
  const total = docs.reduce((sum, d) => sum + d.chunks.reduce((s, c) => s + c.tokens, 0), 0);
  if (total <= budget) return out(docs.map((d) => d.chunks.map((c) => c.content)));
  if (docs.length > 1) return [];
  const front: { content: string; tokens: number }[] = [];
  for (const chunk of docs[0]!.chunks.slice(0, FRONT_PAGE_CHUNKS)) {
    if (budget < chunk.tokens * FRONT_PAGE_CHUNKS * 2) break;
    front.push(chunk);
  }
  return out([fill(front, budget)]);
}

/** Chunks in order while the budget lasts; the one that overflows is cut to what is left. */
function fill(chunks: readonly { content: string; tokens: number }[], budget: number): string[] {
  const taken: string[] = [];
  let left = budget;
  for (const c of chunks) {
    if (left <= 0) break;
    if (c.tokens <= left) {
      taken.push(c.content);
      left -= c.tokens;
    } else {
      taken.push(truncateTokens(c.content, left));
      break;
    }
  }
  return taken;
}

export class FrontPageSearch extends BaseToolWithFileAccess {
  name = 'front_page_search';
  description = `Returns the opening of a document (its first chunks: title, abstract, introduction), whatever the query. Supported file types: ${DOCUMENT_TYPES}.`;
  parameters = {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The question the opening is read for.' },
      files: {
        type: 'array',
        items: { type: 'string' },
        description: 'The files to read, by the names they were uploaded under (all of them when left out).',
      },
    },
    required: ['query'],
  };

  async call(params: string, ctx: ToolContext) {
    const { query, files = [] } = this.parseArgs<{ query: string; files?: string[] }>(params);
    const settings = ragSettings(this.cfg, settingsOf(ctx));
    const { loadIndexes } = await import('../lib/documents/search'); // the parsers load on first use
    const picked = pickFilesOrAll(files, ctx);
    const { docs, errors, unsupported } = await loadIndexes(picked.files, settings.parserPageSize, settings.parse);
    const failed = [...errors, ...unsupported];
    if (!docs.length && failed.length) throw new Error(failed.join('\n'));
    const notice = picked.notice ? [{ notice: picked.notice }] : [];
    return [...notice, ...frontPageChunks(docs, query, settings.maxRefTokens), ...failed.map((error) => ({ error }))];
  }
}

registerTool('front_page_search')(FrontPageSearch);
