// The blob store as an S3 bucket (AWS S3 or an S3-compatible server: MinIO, Ceph, R2, s3rver in the tests), through
// the official @aws-sdk/client-s3. Keys get S3_PREFIX in front. Bodies stream both ways (a put announces its
// length, so no multipart upload is needed up to S3's 5 GB per object, far above UPLOAD_MAX_BYTES). Errors name the
// bucket and key, never the credentials.
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3EnvConfig } from '../config';
import { loadOptional } from '../config/optional-package';
import { BlobError, checkKey, exactly, checkPrefix, type BlobBody, type BlobInfo, type BlobStore } from './types';

type Sdk = typeof import('@aws-sdk/client-s3');

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  /** The SDK loads with the first request, not with the app. */
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(private readonly settings: S3EnvConfig) {}

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    const s = this.settings;
    this.connection ??= loadOptional(
      '@aws-sdk/client-s3',
      'Keeping files on S3 (BLOB_STORE=s3)',
      () => import('@aws-sdk/client-s3'),
    ).then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: s.region,
        endpoint: s.endpoint,
        forcePathStyle: s.forcePathStyle,
        credentials: s.credentials,
        // Checksums only where S3 requires them: the SDK's default (a streamed CRC trailer on every put) is not
        // understood by many S3-compatible servers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.connection;
  }

  async put(key: string, body: Readable, size: number): Promise<{ etag: string }> {
    // A body that ends short would leave the server waiting for the rest: its error cancels the request.
    const checked = exactly(key, body, size);
    const cancel = new AbortController();
    let bodyError: unknown;
    checked.once('error', (e) => {
      bodyError = e;
      cancel.abort(e);
    });
    let out;
    try {
      out = await this.call('store', key, ({ sdk, client }) =>
        client.send(
          new sdk.PutObjectCommand({
            Bucket: this.settings.bucket,
            Key: this.full(key),
            Body: checked,
            ContentLength: size,
          }),
          { abortSignal: cancel.signal },
        ),
      );
    } catch (e) {
      throw bodyError ?? e;
    }
    if (!out) throw new BlobError(`Could not store "${key}": the S3 bucket "${this.settings.bucket}" answered 404.`);
    return { etag: out.ETag ?? '' };
  }

  async get(key: string): Promise<BlobBody | undefined> {
    const out = await this.call('read', key, ({ sdk, client }) =>
      client.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.full(key) })),
    );
    return out && { body: out.Body as Readable, size: out.ContentLength ?? 0 };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const out = await this.call('look up', key, ({ sdk, client }) =>
      client.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.full(key) })),
    );
    return out && { key, size: out.ContentLength ?? 0, etag: out.ETag ?? '' };
  }

  async delete(key: string): Promise<void> {
    await this.call('delete', key, ({ sdk, client }) =>
      client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.full(key) })),
    );
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    const out: BlobInfo[] = [];
    const strip = this.settings.prefix.length;
    let token: string | undefined;
    do {
      const page = await this.call('list', prefix, ({ sdk, client }) =>
        client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix + prefix,
            ContinuationToken: token,
          }),
        ),
      );
      for (const o of page?.Contents ?? [])
        if (o.Key) out.push({ key: o.Key.slice(strip), size: o.Size ?? 0, etag: o.ETag ?? '' });
      token = page?.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private full(key: string): string {
    return this.settings.prefix + checkKey(key);
  }

  /** The answer, undefined for a missing key (404), or a BlobError saying what could not be done. */
  private async call<T>(
    what: string,
    key: string,
    send: (c: { sdk: Sdk; client: S3Client }) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await send(await this.connect());
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 && (e as Error).name !== 'NoSuchBucket') return undefined;
      const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      throw new BlobError(
        `Could not ${what} "${this.settings.prefix}${key}" in the S3 bucket "${this.settings.bucket}" (${why}).`,
        { cause: e },
      );
    }
  }
}
