// An upload on a full disk: DATA_DIR (files and SQLite database) on a small tmpfs mounted for the test (the suite
// runs as root), filled up but for a few hundred KB, then a 4 MB upload through the upload API (lib/uploads/http.ts,
// what app/api/files wires) over a real Request. It must fail at once with a message that says the disk is full,
// leave no partial file and no row, and work again as soon as space is freed. Before, the write's ENOSPC was never
// heard (the copy waited for a 'drain' that a failed stream never sends): no answer at all.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { createChatModel } from '../../lib/llm';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import type { DocumentService } from '../../lib/uploads/service';
import { chatContext } from '../support/chat';

const OWNER = ownerScope('owner-a');
const MOUNT_MB = 24;

let mount: string;
let store: ChatStore;
let uploads: DocumentService;

beforeAll(async () => {
  mount = mkdtempSync(path.join(tmpdir(), 'disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_MB}m`, 'tmpfs', mount]);
  } catch (e) {
    throw new Error(`This test mounts a ${MOUNT_MB} MB tmpfs and needs root: ${(e as Error).message}`);
  }
  store = await openSqliteStore(path.join(mount, 'agent-studio.db'));
  const agents = () =>
    new FnCallAgent({ llm: createChatModel({ model: 'unused', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' }) });
  uploads = (await chatContext(store, agents, { DATA_DIR: mount })).uploads;
});
afterAll(async () => {
  await store?.close();
  if (mount) {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  }
});

/** `mb` megabytes of CSV, streamed in 64 KB pieces as a browser sends a file. */
function csvBody(mb: number): ReadableStream<Uint8Array> {
  const row = new TextEncoder().encode('2026-12-01,Brest,high water,06:12,18:40\n');
  let left = mb * 1024 * 1024;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const piece = new Uint8Array(Math.min(64 * 1024, left));
      for (let at = 0; at < piece.length; at += row.length) piece.set(row.subarray(0, piece.length - at), at);
      controller.enqueue(piece);
      left -= piece.length;
    },
  });
}

function upload(name: string, mb: number): Promise<Response> {
  const request = new Request(`http://app/api/files?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body: csvBody(mb),
    duplex: 'half',
  } as RequestInit);
  return handleUpload(uploads, OWNER, request);
}

/** Everything under files/ (the uploads and the temporary files of uploads in flight). */
function storedFiles(): string[] {
  return readdirSync(path.join(mount, 'files'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('an upload on a full disk', () => {
  it('fails at once saying the disk is full, keeps nothing, and works again once space is freed', async () => {
    // Fill the disk but for 256 KB (enough for the database's few writes, not for the file).
    const free = () => {
      const s = statfsSync(mount);
      return s.bavail * s.bsize;
    };
    const filler = path.join(mount, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 256 * 1024)));

    const refused = await upload('tides.csv', 4);
    expect(refused.status).toBe(507);
    const body = (await refused.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('disk-full');
    expect(body.error.message).toBe(
      "tides.csv could not be stored: the server's disk is full. Nothing was kept; try again once space is freed.",
    );
    expect(storedFiles()).toEqual([]); // no partial file, in files/ or its .incoming/
    expect(await store.listConversations(OWNER)).toEqual([]); // no conversation made for it, no document row

    rmSync(filler);
    const accepted = await upload('tides.csv', 4);
    expect(accepted.status).toBe(201);
    const { document } = (await accepted.json()) as { document: { id: string; conversationId: string } };
    const parsed = await uploads.settled(OWNER, document.id);
    expect(parsed).toMatchObject({ state: 'ready', kind: 'csv' });
    expect(storedFiles()).toHaveLength(1);
    expect((await store.listDocuments(OWNER, document.conversationId)).map((d) => d.id)).toEqual([document.id]);
  });
});
