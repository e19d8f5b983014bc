import { useTranslations } from 'next-intl';
import type { ContentItem } from '../../lib/llm/schema';
import { AnswerImage } from './answer-image';
import { linkShownImages, resultText } from './format';
import { Markdown } from './markdown';

export interface ToolResultProps {
  result: string | ContentItem[];
  /** The result is Markdown (code_interpreter's: each section a fenced block, its figures as images): drawn as an
   *  answer is, with the images in `shown` (already on the card) as links to them. */
  markdown?: boolean;
  shown?: readonly string[];
}

const TEXT = 'whitespace-pre-wrap break-words font-mono text-xs leading-relaxed';

/** What a tool gave back: text as written (or Markdown drawn), images as images, other items named. */
export function ToolResult({ result, markdown = false, shown = [] }: ToolResultProps) {
  const t = useTranslations('toolResult');
  const describe = (item: ContentItem): string => {
    if (item.file) return t('file', { file: item.file });
    if (item.audio) return t('audio', { audio: typeof item.audio === 'string' ? item.audio : t('recording') });
    if (item.video)
      return t('video', { video: typeof item.video === 'string' ? item.video : t('frames', { n: item.video.length }) });
    return '';
  };
  if (markdown) {
    const text = resultText(result);
    if (!text) return <p className={TEXT}>{t('noOutput')}</p>;
    return <Markdown text={linkShownImages(text, shown)} />;
  }
  if (typeof result === 'string') return <pre className={TEXT}>{result === '' ? t('empty') : result}</pre>;
  return (
    <div className="space-y-2">
      {result.map((item, i) => {
        if (item.text !== undefined)
          return (
            <pre key={i} className={TEXT}>
              {item.text}
            </pre>
          );
        if (item.image) {
          return (
            <AnswerImage
              key={i}
              src={item.image}
              alt={t('image', { n: i + 1 })}
              className="h-auto max-w-full rounded"
            />
          );
        }
        return (
          <p key={i} className="text-xs text-neutral-700 dark:text-neutral-300">
            {describe(item)}
          </p>
        );
      })}
    </div>
  );
}
