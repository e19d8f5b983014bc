import { useTranslations } from 'next-intl';
import type { ContentItem } from '../../lib/llm/schema';
import { AnswerImage } from './answer-image';
import { markdownImages, resultText } from './format';

export interface ToolResultProps {
  result: string | ContentItem[];
  /** code_interpreter output: a dark monospace console, with the figures it linked shown below. */
  console?: boolean;
}

const TEXT = 'whitespace-pre-wrap break-words font-mono text-xs leading-relaxed';
const CONSOLE =
  'overflow-x-auto whitespace-pre rounded-md bg-neutral-950 p-3 font-mono text-xs leading-relaxed text-neutral-100 dark:bg-black focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400';

/** What a tool gave back: text as written, images as images, other items named. */
export function ToolResult({ result, console = false }: ToolResultProps) {
  const t = useTranslations('toolResult');
  const describe = (item: ContentItem): string => {
    if (item.file) return t('file', { file: item.file });
    if (item.audio) return t('audio', { audio: typeof item.audio === 'string' ? item.audio : t('recording') });
    if (item.video)
      return t('video', { video: typeof item.video === 'string' ? item.video : t('frames', { n: item.video.length }) });
    return '';
  };
  if (console) {
    const text = resultText(result);
    const figures = markdownImages(text);
    return (
      <div>
        <pre tabIndex={0} className={CONSOLE}>
          {text || t('noOutput')}
        </pre>
        {figures.map((fig, i) => (
          // The tool's own figures are the app's; a URL the code printed is another site's, not loaded by itself.
          <AnswerImage
            key={i}
            src={fig.src}
            alt={fig.alt || t('figure', { n: i + 1 })}
            className="mt-2 h-auto max-w-full rounded"
          />
        ))}
      </div>
    );
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
