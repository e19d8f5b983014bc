// Document search: chunking, BM25 + front-page search within a token budget, and the knowledge block.
export { chunkDocument, pageMarker, DEFAULT_PARSER_PAGE_SIZE, OVERLAP_CHARS, type Chunk } from './chunk';
export { terms, queryTerms } from './terms';
export { Bm25Index, bm25Scores } from './bm25';
export {
  indexDocument,
  indexFile,
  clearIndexCache,
  indexCacheStats,
  MAX_CACHED_CHUNKS,
  type IndexedDocument,
} from './index-cache';
export { searchDocuments, DEFAULT_MAX_REF_TOKEN, type SearchResult, type SearchMode, type RankedChunk } from './search';
export {
  retrieve,
  retrievalStep,
  loadIndexes,
  searchIndexes,
  type Retrieval,
  type RetrievalFile,
  type RetrievedDocument,
  type RetrieveOptions,
} from './retrieve';
export { formatKnowledge } from './knowledge';
