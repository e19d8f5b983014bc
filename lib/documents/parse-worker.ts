// The body of a document-parsing worker thread (parse-pool.ts): one loadDocument at a time, off the server's main
// thread, so a large PDF never stalls the requests the server is answering.
import { parentPort } from 'node:worker_threads';
import { loadDocument } from './load';
import { summaryOf, type PageTask, type ParseTask, type ParseReply } from './parse-pool';
import { DocumentError } from './types';
import { isErrorNamed } from '../protocol/errors';

parentPort!.on('message', async (task: ParseTask | PageTask) => {
  let reply: ParseReply;
  try {
    if ('page' in task) {
      // Loaded with the first page: a worker that only parses documents never loads Readability.
      const { readableText } = await import('./web-page');
      reply = { id: task.id, ok: true, page: readableText(task.page) };
    } else {
      const doc = await loadDocument(task.filePath, task.name, { limits: task.limits, cacheDir: task.cacheDir });
      reply = { id: task.id, ok: true, doc: task.summary ? summaryOf(doc) : doc };
    }
  } catch (e) {
    reply = {
      id: task.id,
      ok: false,
      message: e instanceof Error ? e.message : String(e),
      code: isErrorNamed<DocumentError>(e, 'DocumentError') ? e.code : undefined,
    };
  }
  parentPort!.postMessage(reply);
});
