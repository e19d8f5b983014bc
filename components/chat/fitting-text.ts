'use client';
// A text box's placeholder that shows whole: the long one where it fits on the box's line, a short one where the box
// is narrow (a phone, where the long one was cut after a few words).
import { useLayoutEffect, useState, type RefObject } from 'react';

/** East Asian wide and full-width characters (CJK, kana, hangul, full-width punctuation). */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** What measuring may be off by (canvas against layout, rounding): a text this close to the edge counts as cut. */
const SLACK = 4;

let canvas: HTMLCanvasElement | undefined;

/** How wide `text` is set in the font of `style`. A wide character counts 1em, as a CJK font draws it: a machine
 *  without one draws narrower boxes, and the choice would then differ from a phone's. */
export function textWidth(text: string, style: CSSStyleDeclaration): number {
  const size = parseFloat(style.fontSize) || 16;
  const wide = text.match(WIDE)?.length ?? 0;
  const context = (canvas ??= document.createElement('canvas')).getContext('2d');
  if (!context) return text.length * size;
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  return context.measureText(text.replace(WIDE, '')).width + wide * size;
}

/** `long` if it fits on one line of the box, else `short`; measured again when the box's width or the texts change
 *  (a language switch). `long` until measured (the server's page). */
export function useFittingText(box: RefObject<HTMLElement | null>, long: string, short: string): string {
  const [fits, setFits] = useState(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      const style = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setFits(textWidth(long, style) <= room - SLACK);
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [box, long]);
  return fits ? long : short;
}
