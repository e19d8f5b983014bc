// What an MCP tool answered, as a tool output: text for the model, images kept as image items for the card (with a
// text line so the model, which only gets text back from tools, knows an image was there).
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContentItem } from '../llm/schema';

export class McpToolError extends Error {
  override name = 'McpToolError';
}

type Block = CallToolResult['content'][number];

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function blockItems(block: Block): ContentItem[] {
  switch (block.type) {
    case 'text':
      return [{ text: block.text }];
    case 'image':
      return [
        { text: `[image: ${block.mimeType}, ${approxBytes(block.data)} bytes]` },
        { image: `data:${block.mimeType};base64,${block.data}` },
      ];
    case 'audio':
      return [{ text: `[audio: ${block.mimeType}, ${approxBytes(block.data)} bytes, not shown]` }];
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return [{ text: r.text }];
      return [{ text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]` }];
    }
    case 'resource_link':
      return [{ text: `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}]` }];
    default:
      return [{ text: `[${(block as { type: string }).type} content]` }];
  }
}

/** Text alone becomes one string (blocks separated by a blank line); with images, a list of content items. An
 *  isError result is thrown as McpToolError so the model gets it as an error. */
export function callResultToOutput(result: CallToolResult): string | ContentItem[] {
  const items = (result.content ?? []).flatMap(blockItems);
  if (!items.length && result.structuredContent !== undefined)
    items.push({ text: JSON.stringify(result.structuredContent, null, 2) });
  const text = items
    .filter((i) => i.text !== undefined)
    .map((i) => i.text)
    .join('\n\n');
  if (result.isError) throw new McpToolError(text || 'The tool reported an error without a message.');
  if (!items.length) return '(the tool returned no content)';
  return items.every((i) => i.text !== undefined) ? text : items;
}

export function readResourceToOutput(result: ReadResourceResult): string {
  const parts = result.contents.map((c) =>
    'text' in c && typeof c.text === 'string'
      ? c.text
      : `[binary resource ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}, ${approxBytes(String((c as { blob?: string }).blob ?? ''))} bytes]`,
  );
  return parts.join('\n\n') || '(the resource is empty)';
}
