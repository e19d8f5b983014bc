// `extract_doc_vocabulary`: Qwen-Agent's tool that lists a document's vocabulary, its most characteristic terms
// first. Terms are made as keyword search makes them (lower case, Chinese segmented, stop words dropped, stemmed);
// each term is weighted by TF-IDF as scikit-learn's TfidfVectorizer weighs it (raw counts, smooth idf
// ln((1 + n) / (1 + df)) + 1, each document's row scaled to unit length), its weights summed over the documents, and
// the terms listed by weight (ties in alphabetical order), comma-separated, at most MAX_TERMS of them.
import type { ToolContext } from './base-tool';
import { pickFiles } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { DOCUMENT_TYPES } from './retrieval';
import { registerTool } from './registry';

/** The longest list returned (upstream returns every term: a long document's would fill the model's context). */
export const MAX_TERMS = 500;

/** Terms by TF-IDF weight over `docs` (each a list of terms), best first. */
export function vocabulary(docs: readonly (readonly string[])[]): { term: string; weight: number }[] {
  const counts = docs.map((terms) => {
    const c = new Map<string, number>();
    for (const t of terms) c.set(t, (c.get(t) ?? 0) + 1);
    return c;
  });
  const df = new Map<string, number>();
  for (const c of counts) for (const t of c.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const idf = (t: string) => Math.log((1 + n) / (1 + df.get(t)!)) + 1;
  const weights = new Map<string, number>();
  for (const c of counts) {
    const row = [...c].map(([t, count]) => [t, count * idf(t)] as const);
    const norm = Math.sqrt(row.reduce((s, [, w]) => s + w * w, 0)) || 1;
    for (const [t, w] of row) weights.set(t, (weights.get(t) ?? 0) + w / norm);
  }
  return [...weights]
    .map(([term, weight]) => ({ term, weight }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

export class ExtractDocVocabulary extends BaseToolWithFileAccess {
  name = 'extract_doc_vocabulary';
  description = `Lists the vocabulary of documents, their most characteristic terms first. Supported file types: ${DOCUMENT_TYPES}.`;
  parameters = {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        items: { type: 'string' },
        description: 'The files, by the names they were uploaded under (or as given in the conversation).',
      },
    },
    required: ['files'],
  };

  async call(params: string, ctx: ToolContext) {
    const { files } = this.parseArgs<{ files: string[] }>(params);
    const picked = pickFiles(files, ctx);
    const [{ loadDocumentOffThread }, { terms }] = await Promise.all([
      import('../lib/documents/parse-pool'),
      import('../lib/documents/search'),
    ]);
    const docs = [];
    for (const file of picked) {
      const doc = await loadDocumentOffThread(file.path, file.name);
      docs.push(terms(doc.pages.flatMap((p) => p.paragraphs).join('\n')));
    }
    const list = vocabulary(docs);
    const shown = list.slice(0, MAX_TERMS).map((v) => v.term);
    const more = list.length - shown.length;
    return shown.join(', ') + (more > 0 ? ` … (${more} more terms)` : '');
  }
}

registerTool('extract_doc_vocabulary')(ExtractDocVocabulary);
