// An answer that does not end, as a hostile server sends one: `head`, then `piece` for as long as the client reads,
// then `tail` once `stopAfter` bytes went (so that a reader without a limit still ends).
import type http from 'node:http';

export function writeEndless(
  res: http.ServerResponse,
  head: string,
  piece: Buffer,
  tail: string,
  stopAfter: number,
): void {
  let sent = 0;
  let gone = false;
  res.on('close', () => (gone = true));
  res.write(head);
  const pump = () => {
    while (!gone) {
      if (sent >= stopAfter) return void res.end(tail);
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
  };
  pump();
}
