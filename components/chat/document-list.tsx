'use client';
import { DocumentChips } from './document-chips';
import { useUploads } from './uploads';

/** The open conversation's documents, above the composer. */
export function DocumentList() {
  const items = useUploads((s) => s.items);
  const remove = useUploads((s) => s.remove);
  return <DocumentChips items={items} onRemove={(key) => void remove(key)} />;
}
