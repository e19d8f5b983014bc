'use client';
import { useImageSource } from './answer-image';

/** Whether an avatar is an image (a URL or an uploaded data URL) rather than an emoji. */
export function isImageAvatar(avatar: string): boolean {
  return /^(https?:|\/|data:image\/)/.test(avatar);
}

/** A saved agent's avatar: its image or its emoji; nothing when it has none. An image URL on a host the page may not
 *  load (IMAGE_HOSTS, as for answers' images; an imported agent may carry any URL) shows a neutral face instead of a
 *  broken image: the CSP would refuse it, and loading it would tell that host who looks at the agent. */
export function AgentAvatar({ avatar, size = 'h-5 w-5' }: { avatar?: string; size?: string }) {
  const source = useImageSource(avatar ?? '');
  if (!avatar) return null;
  if (isImageAvatar(avatar) && source.direct)
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={avatar} alt="" className={`${size} shrink-0 rounded-full object-cover`} />;
  return (
    <span aria-hidden="true" className="shrink-0" data-avatar-fallback={isImageAvatar(avatar) ? '' : undefined}>
      {isImageAvatar(avatar) ? '🤖' : avatar}
    </span>
  );
}
