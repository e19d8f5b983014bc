// Document search: chunking, BM25 + front-page + vector search within a token budget, and the knowledge block.
export { chunkDocument, DEFAULT_PARSER_PAGE_SIZE } from './chunk';
export { terms } from './terms';
export {
  indexDocument,
  indexFile,
  clearIndexCache,
  indexCacheStats,
  MAX_CACHED_CHUNKS,
  type IndexedDocument,
} from './index-cache';
export {
  searchDocuments,
  searcherFlags,
  DEFAULT_SEARCHERS,
  SEARCHERS,
  type SearcherName,
  type SearchResult,
} from './search';
export {
  chunkVectors,
  defaultVectorStore,
  memoryVectorStore,
  vectorScores,
  type ChunkVectorsKey,
  type VectorStore,
} from './vectors';
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
export { formatKnowledge, knowledgeTitle } from './knowledge';
