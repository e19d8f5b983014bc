// `doc_parser`: Qwen-Agent's tool that extracts a file's content and cuts it into chunks. Returns its Record:
// {url, title, raw: [{content, metadata: {source, title, chunk_id}, token}]}, each chunk opening with "[page: N]".
// Parsing and chunking are cached by the file's content, as the retrieval tool's are (they share the index).
import type { ToolContext } from './base-tool';
import { pickFiles } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { DOCUMENT_TYPES, ragSettings } from './retrieval';
import { registerTool } from './registry';
import { settingsOf } from './settings';

export class DocParserTool extends BaseToolWithFileAccess {
  name = 'doc_parser';
  description = `Extracts the content of a file and splits it into chunks of at most a few hundred tokens, each starting with its page number; returns the chunks. Supported file types: ${DOCUMENT_TYPES}.`;
  parameters = {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        description: 'The file to parse, by the name it was uploaded under (or as given in the conversation).',
      },
    },
    required: ['url'],
  };

  async call(params: string, ctx: ToolContext) {
    const { url } = this.parseArgs<{ url: string }>(params);
    const [file] = pickFiles([url], ctx);
    const { indexFile } = await import('../lib/documents/search'); // the parsers load only when a file is read
    const { parserPageSize, parse } = ragSettings(this.cfg, settingsOf(ctx));
    const doc = await indexFile(file!.path, parserPageSize, file!.name, parse);
    const title = doc.title ?? doc.name;
    return {
      url: doc.name,
      title,
      raw: doc.chunks.map((c) => ({
        content: c.content,
        metadata: { source: doc.name, title, chunk_id: c.index },
        token: c.tokens,
      })),
    };
  }
}

registerTool('doc_parser')(DocParserTool);
