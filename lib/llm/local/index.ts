// The built-in local model (GGUF files run by llama.cpp in a worker thread): what the rest of the app uses.
export { LocalChatModel, DEFAULT_MAX_TOKENS } from './local-model';
export { DeferredLocalModel } from './deferred-model';
export type { LocalModelOptions } from './local-model';
export { LocalModelHost, localModelHost } from './worker-host';
export { loadOptionsFrom } from './worker-protocol';
export type { LoadedModelInfo, LoadOptions } from './worker-protocol';
export { readGgufHeader, GgufFormatError } from './gguf-header';
export type { GgufHeader, GgufProblem, GgufMetadataValue } from './gguf-header';
export { listLocalModels, resolveLocalModel, modelFileName, ModelNameError } from './models-dir';
export type { LocalModelFile, PartialDownload, GgufSummary } from './models-dir';
export { downloadModel, downloadPolicy, DownloadError } from './download';
export type { DownloadModelOptions, DownloadProgress, DownloadProblem } from './download';
export { LOCAL_MODEL_CATALOG, catalogModel } from './catalog';
export type { CatalogModel } from './catalog';
