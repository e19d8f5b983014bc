// Word (.docx) through mammoth's HTML (it keeps headings, lists and tables), then the HTML reader. The zip is
// inflated once first under the zip-bomb limits, since mammoth itself inflates without any.
import { loadOptional } from '../../config/optional-package';
import { DocumentError, type DocumentPage } from '../types';
import { readZip } from '../zip';
import { htmlToText } from './html';
import { coreTitle } from './ooxml';

export async function parseDocx(
  bytes: Uint8Array,
  name: string,
  maxUnzipped: number,
): Promise<{ title?: string; pages: DocumentPage[] }> {
  const parts = readZip(bytes, name, { maxTotal: maxUnzipped, keep: (p) => p === 'docProps/core.xml' });
  const { default: mammoth } = await loadOptional('mammoth', 'Reading Word files', () => import('mammoth'));
  let html: string;
  try {
    // Images would arrive as base64 data URIs; only text is wanted, so they are left empty.
    const convertImage = mammoth.images.imgElement(async () => ({ src: '' }));
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { convertImage })).value;
  } catch (e) {
    throw new DocumentError(
      `${name} is a corrupt Word document (${e instanceof Error ? e.message : String(e)}).`,
      'corrupt',
    );
  }
  const { paragraphs, title } = htmlToText(`<body>${html}</body>`);
  return { title: coreTitle(parts) ?? title, pages: [{ page: 1, paragraphs }] };
}
