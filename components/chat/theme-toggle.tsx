'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useSyncExternalStore } from 'react';

type Theme = 'light' | 'dark';
const CHANGE = 'agent-studio-theme';

function subscribe(onChange: () => void): () => void {
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', onChange);
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

function currentTheme(): Theme {
  const saved = localStorage.getItem('theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Light or dark, remembered; follows the system until the user picks. */
export function ThemeToggle() {
  const t = useTranslations('theme');
  const theme = useSyncExternalStore(subscribe, currentTheme, () => undefined);
  useEffect(() => {
    if (theme) document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
  if (!theme) return null;
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      aria-label={next === 'dark' ? t('toDark') : t('toLight')}
      onClick={() => {
        localStorage.setItem('theme', next);
        window.dispatchEvent(new Event(CHANGE));
      }}
      className="shrink-0 rounded-lg px-2 py-1 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-neutral-800"
    >
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
