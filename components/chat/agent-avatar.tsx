'use client';

/** A saved agent's avatar: its image (a URL or an uploaded data URL) or its emoji; nothing when it has none. */
export function AgentAvatar({ avatar, size = 'h-5 w-5' }: { avatar?: string; size?: string }) {
  if (!avatar) return null;
  if (/^(https?:|\/|data:image\/)/.test(avatar))
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={avatar} alt="" className={`${size} shrink-0 rounded-full object-cover`} />;
  return (
    <span aria-hidden="true" className="shrink-0">
      {avatar}
    </span>
  );
}
