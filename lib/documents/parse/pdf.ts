// PDF through pdf.js (pdfjs-dist, legacy build for Node 20): text per page with layout-based paragraphs and tables.
import { DocumentError, type DocumentPage } from '../types';
import { layoutParagraphs, type PositionedText } from './pdf-layout';
import { isErrorNamed } from '../../protocol/errors';
import { loadOptional } from '../../config/optional-package';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js, loaded once (it is large; the first document pays for it). */
export function loadPdfJs(): Promise<PdfJs> {
  return (pdfjs ??= loadOptional('pdfjs-dist', 'Reading PDF files', () => import('pdfjs-dist/legacy/build/pdf.mjs')));
}

export type PdfProxy = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

export async function openPdf(bytes: Uint8Array, name: string): Promise<PdfProxy> {
  const { getDocument } = await loadPdfJs();
  try {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given.
    return await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (e) {
    const kind = e instanceof Error ? e.name : '';
    if (kind === 'PasswordException')
      throw new DocumentError(
        `${name} is a password-protected PDF; remove the password and upload it again.`,
        'encrypted',
      );
    const reason = e instanceof Error ? e.message : String(e);
    throw new DocumentError(`${name} is a corrupt PDF and cannot be read (${reason}).`, 'corrupt');
  }
}

export async function parsePdf(bytes: Uint8Array, name: string): Promise<{ title?: string; pages: DocumentPage[] }> {
  const doc = await openPdf(bytes, name);
  try {
    const pages: DocumentPage[] = [];
    let characters = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items: PositionedText[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const t = item.transform as number[];
        items.push({
          str: item.str,
          x: t[4]!,
          y: t[5]!,
          width: item.width,
          size: Math.hypot(t[2]!, t[3]!) || item.height,
        });
        characters += item.str.trim().length;
      }
      pages.push({ page: n, paragraphs: layoutParagraphs(items) });
      page.cleanup();
    }
    if (characters === 0) {
      throw new DocumentError(
        `${name} has no text layer: its ${doc.numPages === 1 ? 'page is an image' : `${doc.numPages} pages are images`} (a scanned PDF?). Text recognition (OCR) is not supported.`,
        'no-text',
      );
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    return { title, pages };
  } catch (e) {
    if (isErrorNamed<DocumentError>(e, 'DocumentError')) throw e;
    throw new DocumentError(
      `${name} is a corrupt PDF and cannot be read (${e instanceof Error ? e.message : String(e)}).`,
      'corrupt',
    );
  } finally {
    await doc.destroy();
  }
}
