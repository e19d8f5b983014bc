// `simple_doc_parser`: Qwen-Agent's tool that extracts a document's content whole, without chunking it (doc_parser's
// chunks are for search). By default the text of every page, paragraph by paragraph (tables as markdown), one per
// line; with cfg.structured_doc (upstream's option) the pages, [{page_num, content: [{text | table, token}]}].
// Parsing is cached by the file's content, as for every document tool.
import { countTokens } from '../lib/llm/tokens';
import type { ToolContext } from './base-tool';
import { pickFiles } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { DOCUMENT_TYPES } from './retrieval';
import { registerTool } from './registry';

/** A paragraph that is a markdown table (the parsers write tables so). */
function isTable(paragraph: string): boolean {
  return paragraph.startsWith('|') && paragraph.includes('\n|');
}

export class SimpleDocParser extends BaseToolWithFileAccess {
  name = 'simple_doc_parser';
  description = `Extracts the whole content of a document as text. Supported file types: ${DOCUMENT_TYPES}.`;
  parameters = {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        description: 'The file to read, by the name it was uploaded under (or as given in the conversation).',
      },
    },
    required: ['url'],
  };

  async call(params: string, ctx: ToolContext) {
    const { url } = this.parseArgs<{ url: string }>(params);
    const [file] = pickFiles([url], ctx);
    const { loadDocumentOffThread } = await import('../lib/documents/parse-pool'); // parsers load on first use
    const doc = await loadDocumentOffThread(file!.path, file!.name);
    if (this.cfg.structured_doc !== true)
      return doc.pages
        .flatMap((p) => p.paragraphs)
        .filter((p) => p.trim())
        .join('\n');
    return doc.pages.map((page, i) => ({
      page_num: page.page,
      content: page.paragraphs.map((p) => ({ [isTable(p) ? 'table' : 'text']: p, token: countTokens(p) })),
      ...(i === 0 && doc.title ? { title: doc.title } : {}),
    }));
  }
}

registerTool('simple_doc_parser')(SimpleDocParser);
