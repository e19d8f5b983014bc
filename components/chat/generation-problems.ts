'use client';
// Generation settings outside their ranges (lib/protocol/generation-settings.ts), said in the page's language with
// the setting's name as the page shows it: "Temperature must be between 0 and 2 (you entered 99)."
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { generationProblems, type GenerationProblem } from '@/lib/protocol/generation-settings';

/** Says one problem; `sayAll` says every problem of a set of settings, in one line (empty when there is none). */
export function useGenerationProblemText(): {
  say: (problem: GenerationProblem) => string;
  sayAll: (cfg: Readonly<Record<string, number>>) => string;
} {
  const t = useTranslations('generation');
  const say = useCallback(
    (p: GenerationProblem) => {
      // Said as typed (a number formatted for the locale could round it, or group 131072 as 131,072).
      const values = {
        name: t(`names.${p.key}`),
        min: String(p.min),
        max: String(p.max ?? ''),
        value: String(p.value),
      };
      if (p.integer) return p.max === undefined ? t('wholeAtLeast', values) : t('wholeBetween', values);
      return p.max === undefined ? t('atLeast', values) : t('between', values);
    },
    [t],
  );
  const sayAll = useCallback(
    (cfg: Readonly<Record<string, number>>) => generationProblems(cfg).map(say).join(' '),
    [say],
  );
  return { say, sayAll };
}
