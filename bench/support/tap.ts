// A pass-through HTTP proxy between the app and the model server that notes when each chat-completion stream
// started and when its last byte went by: the model side's own clock for "the stream ended".
import { createServer, request, type Server } from 'node:http';

export interface TappedStream {
  /** Date.now() when the request reached the tap, when the first response byte and the last one passed. */
  requestAt: number;
  firstByteAt?: number;
  endAt?: number;
  bytes: number;
}

export interface Tap {
  /** OpenAI base URL to give the app (ends with /v1). */
  url: string;
  streams: TappedStream[];
  stop(): Promise<void>;
}

export async function startTap(targetBaseUrl: string): Promise<Tap> {
  const target = new URL(targetBaseUrl);
  const streams: TappedStream[] = [];
  const server: Server = createServer((req, res) => {
    const record: TappedStream | undefined = req.url?.endsWith('/chat/completions')
      ? { requestAt: Date.now(), bytes: 0 }
      : undefined;
    if (record) streams.push(record);
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on('data', (chunk: Buffer) => {
          if (record) {
            record.firstByteAt ??= Date.now();
            record.bytes += chunk.length;
          }
          res.write(chunk);
        });
        up.on('end', () => {
          if (record) record.endAt = Date.now();
          res.end();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    streams,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
