// Prompt-based function calling: pick a format by name; ReAct and the no-tools text conversion live alongside.
import { nousFormat } from './nous';
import { qwenFormat } from './qwen';
import type { FncallFormat, FncallFormatName } from './types';

export type { FncallFormat, FncallFormatName, ParseOptions, ParseResult, RenderOptions } from './types';
export { nousFormat } from './nous';
export { qwenFormat } from './qwen';
export { functionsToText } from './plain-text';
export { foldTrailingAssistant } from './content';
export { extractFn, parseJson5, pyJsonDumps } from './json-slice';
export {
  buildReactPrompt,
  detectReactAction,
  parseReactSteps,
  ReactPartSplitter,
  reactPieces,
  REACT_STOP_WORDS,
} from './react-format';
export type { ReactAction, ReactPiece, ReactStep } from './react-format';

const FORMATS: Record<FncallFormatName, FncallFormat> = { nous: nousFormat, qwen: qwenFormat };

export function getFncallFormat(name: FncallFormatName): FncallFormat {
  const format = FORMATS[name];
  if (!format) throw new Error(`Unknown function-calling format "${String(name)}" (expected 'nous' or 'qwen').`);
  return format;
}
