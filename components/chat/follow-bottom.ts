'use client';
import { useEffect, useRef, type RefObject } from 'react';

/** How close to the bottom (px) the reader must be for the thread to keep following. */
const NEAR_BOTTOM_PX = 200;

/**
 * Keeps a scroller at the bottom while `content` grows, unless the reader has scrolled up; a new `turnKey` (the
 * number of turns) always goes to the bottom. The scroll happens in a ResizeObserver callback, which runs after the
 * browser's own layout: reading sizes there costs nothing, whereas reading them after each React commit forced a
 * layout of the whole thread into the same task as the render (the long tasks of a long streamed answer).
 */
export function useFollowBottom(content: RefObject<HTMLElement | null>, turnKey: number): void {
  const stuck = useRef(true);
  // The thread shows no content element until its first turn.
  const shown = turnKey > 0;

  useEffect(() => {
    const el = content.current;
    const scroller = el?.closest<HTMLElement>('[data-thread-scroller]');
    if (!el || !scroller) return;
    // Scroll events come with the frame, after the sizes they read are laid out for it.
    const onScroll = () => {
      stuck.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < NEAR_BOTTOM_PX;
    };
    const observer = new ResizeObserver(() => {
      if (stuck.current) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.observe(el);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', onScroll);
    };
  }, [content, shown]);

  useEffect(() => {
    stuck.current = true;
    const scroller = content.current?.closest<HTMLElement>('[data-thread-scroller]');
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, [content, turnKey]);
}
