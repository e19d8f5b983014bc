// Node types of htmlparser2's DOM, taken from htmlparser2 itself (domhandler is only its dependency, not ours).
import type { parseDocument } from 'htmlparser2';

export type Document = ReturnType<typeof parseDocument>;
export type ChildNode = Document['children'][number];
export type Element = Extract<ChildNode, { type: 'tag' | 'script' | 'style' }>;
