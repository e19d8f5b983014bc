'use client';
// A run's error as the page says it, the same on the turn and in the run inspector: in the page's language by its
// code (the server's own words kept inside the sentence), else as the server wrote it.
import { useTranslations } from 'next-intl';
import type { ErrorInfo } from '../../lib/protocol/events';
import { useConnectionName } from '../models/connection-name';
import { unreachableText } from './format';
import { useCodedText } from './server-text';
import { useFormatWords } from './use-format-words';

/** What the page knows of where the run went: its connection's name (run-start's), and that connection's address
 *  when this viewer may see it (useConnectionAddress). A server that could not be reached is named by them. */
export interface RunErrorPlace {
  connection?: string;
  address?: string;
}

export function useRunErrorText(): (error: ErrorInfo, place?: RunErrorPlace) => string {
  const t = useTranslations('run');
  const f = useFormatWords();
  const coded = useCodedText('errors');
  const connectionName = useConnectionName();
  return (error, place = {}) => {
    if (!error.code) return error.message;
    // A child run's error (a ParallelDocQA reader's) says whose it was, then the error: its message starts so.
    const own = error.agent ? error.message.slice(error.agent.length + 2) : error.message;
    const whose = (text: string) => (error.agent ? t('childFailed', { agent: error.agent, error: text }) : text);
    const detail = error.values?.detail;
    if (error.code === 'model-unreachable' && place.connection && typeof detail === 'string')
      return whose(unreachableText(detail, connectionName(place.connection), place.address, f));
    return whose(coded({ message: own, code: error.code, values: error.values }));
  };
}
