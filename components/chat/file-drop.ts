'use client';
// Files dropped anywhere on the thread or the composer are uploaded to the open conversation.
import type { DragEvent } from 'react';
import { useUploads } from './uploads';

function carriesFiles(e: DragEvent): boolean {
  return [...e.dataTransfer.types].includes('Files');
}

export const fileDropHandlers = {
  onDragOver(e: DragEvent) {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  },
  onDrop(e: DragEvent) {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    void useUploads.getState().uploadFiles([...e.dataTransfer.files]);
  },
};
