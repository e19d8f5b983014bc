// The tool layer's public API. Importing it registers the builtin tools in TOOL_REGISTRY (their modules, exported
// below, register themselves).
export { BaseTool, legacyParametersToSchema } from './base-tool';
export type { ToolContext, ToolEvent, ToolFailure, ToolOutput, ToolParameters, LegacyToolParameter } from './base-tool';
export { ToolServiceError, ToolArgumentsError, ToolDefinitionError, isToolServiceError } from './errors';
export {
  TOOL_REGISTRY,
  registerTool,
  checkTool,
  createTool,
  unregisterTool,
  unavailableReason,
  toolUnavailableError,
} from './registry';
export type { ToolClass } from './registry';
export { parseToolArgs, validateToolArgs, formatValidationErrors, INVALID_JSON_MESSAGE } from './args';
export { runTool, unknownToolResult, normalizeToolOutput } from './run-tool';
export type { ToolRunResult } from './run-tool';
export {
  BaseToolWithFileAccess,
  stageFiles,
  allowLocalFileStaging,
  resolveLocalFile,
  safeFileName,
  stagedFileName,
  defaultWorkDir,
  MAX_DOWNLOAD_BYTES,
  DOWNLOAD_TIMEOUT_MS,
} from './file-access';
export type { StageOptions, FileSettings } from './file-access';
export { toolSettings, defaultToolSettings, settingsOf, dataDir } from './settings';
export type { McpServers, ToolSettings } from './settings';
export { CodeSandbox } from './code-sandbox';
export type { CodeInterpreterInfo } from './code-sandbox';
export { CalculatorTool, evaluateExpression, formatNumber } from './calculator';
export { CurrentTimeTool, formatTimeIn } from './current-time';
export { StorageTool, KeyNotExistsError } from './storage';
export { RetrievalTool } from './retrieval';
export { DocParserTool } from './doc-parser';
export { ToolOutputWithFiles, FailedToolOutput } from './base-tool';
export { CodeInterpreterTool, extractCode, codeWorkDir, codeWorkPrefix, CODE_INTERPRETER } from './code-interpreter';
export { WebSearchTool, WEB_SEARCH_HOWTO } from './web-search';
export type { WebSearchOutput } from './web-search';
export { WebExtractorTool } from './web-extractor';
export { PythonExecutor, PYTHON_EXECUTOR } from './python-executor';
export { ImageZoomInToolQwen3VL, smartResize, pixelBox } from './image-zoom-in';
export { ImageGen, imageGenRefusal, IMAGE_GEN_HOWTO } from './image-gen';
export { ExtractDocVocabulary, vocabulary } from './extract-doc-vocabulary';
export { SimpleDocParser } from './simple-doc-parser';
export { FrontPageSearch, frontPageChunks } from './front-page-search';
export { AmapWeather } from './amap-weather';
export { ImageSearch, imageResults } from './image-search';
export { imagesInMessages } from './conversation-images';
