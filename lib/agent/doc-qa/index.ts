// Qwen-Agent's document-QA agents: BasicDocQA (search, then one answer) and ParallelDocQA (read every chunk in
// parallel, then answer), with ParallelDocQA's steps.
export { BasicDocQA } from './basic-doc-qa';
export {
  ParallelDocQA,
  PARALLEL_CHUNK_SIZE,
  MAX_RAG_TOKEN_SIZE,
  RAG_CHUNK_SIZE,
  type Finding,
  type ParallelDocQAOptions,
} from './parallel-doc-qa';
export {
  ParallelDocQAMember,
  READER_STOP,
  type ParallelDocQAMemberOptions,
  type ReaderChunk,
} from './parallel-doc-qa-member';
export { ParallelDocQASummary, type ParallelDocQASummaryOptions } from './parallel-doc-qa-summary';
export { NO_RESPONSE, readerVerdict, type ReaderVerdict } from './reader-output';
