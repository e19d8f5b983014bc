// Prompt-based function calling: pick a format by name; ReAct and the no-tools text conversion live alongside.
import { nousFormat } from './nous';
import { qwenFormat } from './qwen';
import type { FncallFormat, FncallFormatName } from './types';

export type { FncallFormat, FncallFormatName, ParseResult } from './types';
export { functionsToText } from './plain-text';
export {
  buildReactPrompt,
  detectReactAction,
  parseReactSteps,
  ReactPartSplitter,
  reactPieces,
  REACT_STOP_WORDS,
} from './react-format';
export type { ReactPiece, ReactStep } from './react-format';

const FORMATS: Record<FncallFormatName, FncallFormat> = { nous: nousFormat, qwen: qwenFormat };

export function getFncallFormat(name: FncallFormatName): FncallFormat {
  const format = FORMATS[name];
  if (!format) throw new Error(`Unknown function-calling format "${String(name)}" (expected 'nous' or 'qwen').`);
  return format;
}
