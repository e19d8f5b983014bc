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
export { searchDocuments, type SearchResult } from './search';
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
export { documentVocabulary } from './vocabulary';
export {
  AVAILABLE_SEARCHERS,
  DEFAULT_RAG_SEARCHERS,
  RAG_SEARCHER_NAMES,
  RagSettingError,
  ragSearchers,
  searchPlan,
  type AvailableSearcher,
  type SearchPlan,
  type RagSearcherName,
} from './searchers';
