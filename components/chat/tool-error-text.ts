'use client';
// A tool call's failure as the page says it, on its card and in the run inspector: by its code in the page's language
// (the tool's own words inside), else in the English the card has always shown. The model is told the English.
import { useTranslations } from 'next-intl';
import { TOOL_ERROR_KINDS, type ToolErrorKind } from '../../lib/protocol/enums';
import type { ToolErrorInfo } from '../../lib/protocol/events';
import { useCodedText } from './server-text';

type CodedToolError = Pick<ToolErrorInfo, 'code' | 'values'>;

/** Says `error` in the page's language when it has a code, else (and on an English page) `english` as it is. */
export function useToolErrorText(): (error: CodedToolError | undefined, english: string) => string {
  const coded = useCodedText('errors');
  return (error, english) =>
    error?.code ? coded({ message: english, code: error.code, values: error.values }) : english;
}

/** How a call failed (its error's kind), in the page's language; a kind this page does not know (a newer server's)
 *  as it came. */
export function useToolErrorKindText(): (kind: string | undefined) => string {
  const t = useTranslations('inspector');
  return (kind) =>
    !kind
      ? t('toolErrorKind.error')
      : (TOOL_ERROR_KINDS as readonly string[]).includes(kind)
        ? t(`toolErrorKind.${kind as ToolErrorKind}`)
        : kind;
}
