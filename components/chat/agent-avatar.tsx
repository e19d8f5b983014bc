'use client';
import { useImageSource } from './answer-image';

/** Whether an avatar is an image (a URL or an uploaded data URL) rather than an emoji. */
export function isImageAvatar(avatar: string): boolean {
  return /^(https?:|\/|data:image\/)/.test(avatar);
}

/** A saved agent's avatar: its image or its emoji; nothing when it has none. An image URL on a host the page may not
 *  load (IMAGE_HOSTS, as for answers' images; an imported agent may carry any URL) shows a neutral face (an SVG icon)
 *  instead of a broken image: the CSP would refuse it, and loading it would tell that host who looks at the agent. */
export function AgentAvatar({ avatar, size = 'h-5 w-5' }: { avatar?: string; size?: string }) {
  const source = useImageSource(avatar ?? '');
  if (!avatar) return null;
  if (isImageAvatar(avatar) && source.direct)
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={avatar} alt="" className={`${size} shrink-0 rounded-full object-cover`} />;
  if (isImageAvatar(avatar))
    return (
      <svg
        aria-hidden="true"
        data-avatar-fallback=""
        viewBox="0 0 20 20"
        className={`${size} shrink-0 text-neutral-600 dark:text-neutral-400`}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
        strokeLinecap="round"
      >
        <rect x="3" y="6.5" width="14" height="10.5" rx="3" />
        <path d="M10 6.5V4M8 14h4" />
        <circle cx="10" cy="3" r="1" fill="currentColor" stroke="none" />
        <circle cx="7.5" cy="10.5" r="1.25" fill="currentColor" stroke="none" />
        <circle cx="12.5" cy="10.5" r="1.25" fill="currentColor" stroke="none" />
      </svg>
    );
  return (
    <span aria-hidden="true" className="shrink-0">
      {avatar}
    </span>
  );
}
