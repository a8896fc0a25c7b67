/**
 * FileStorage on an S3-compatible bucket (Garage, SeaweedFS, AWS…). Nothing in the bucket is public:
 * files are read through Buble's own authorization (/api/uploads/secure/...), streamed from here.
 */

import path from 'node:path'
import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { Config, S3Settings } from '../config.ts'
import type { Logger } from './log.ts'
import {
  type ByteRange,
  checkStorageKey,
  createFileStorage,
  type FileStorage,
  StorageUnavailableError,
} from './storage.ts'

/** Bodies from this size up go in parts (lib-storage), so a 50 MB video is never one long request. */
export const MULTIPART_FROM = 8 * 1024 * 1024
const PART_SIZE = 5 * 1024 * 1024

export type S3FileStorage = FileStorage & {
  /** Streams `body` (any length) to `key`, in parts when it is long; a failed upload is aborted. */
  putStream(key: string, body: Readable): Promise<void>
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Self-hosted servers do not all understand the SDK's default trailing checksums (aws-chunked bodies).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that does not answer is unavailable, not a request that hangs.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
    maxAttempts: 2,
  })
}

/** The object is not there (a missing bucket is not a missing file: that is a storage that cannot serve). */
const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  err.name !== 'NoSuchBucket' &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)

export function createS3Storage(settings: S3Settings, log: Logger, client = createS3Client(settings)): S3FileStorage {
  const Bucket = settings.bucket
  /** Anything the bucket says other than "no such object" means it cannot serve us now. */
  const unavailable = (op: string, key: string) => (err: unknown) => {
    log.warn('file storage unavailable', { op, key, err })
    return new StorageUnavailableError(err)
  }

  async function getObject(key: string, range?: ByteRange) {
    try {
      const out = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      )
      return out.Body as Readable
    } catch (err) {
      if (isMissing(err)) return null
      throw unavailable('get', key)(err)
    }
  }

  async function upload(key: string, body: Readable | Uint8Array) {
    const task = new Upload({
      client,
      params: { Bucket, Key: key, Body: body },
      partSize: PART_SIZE,
      queueSize: 2,
      // A failed multipart upload is aborted: no parts are left in the bucket.
      leavePartsOnError: false,
    })
    await task.done()
  }

  return {
    async put(key, bytes) {
      checkStorageKey(key)
      try {
        if (bytes.length >= MULTIPART_FROM) await upload(key, bytes)
        else await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentLength: bytes.length }))
      } catch (err) {
        throw unavailable('put', key)(err)
      }
    },
    async putStream(key, body) {
      checkStorageKey(key)
      try {
        await upload(key, body)
      } catch (err) {
        throw unavailable('put', key)(err)
      }
    },
    async get(key) {
      checkStorageKey(key)
      const body = await getObject(key)
      if (!body) return null
      const chunks: Buffer[] = []
      try {
        for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array))
      } catch (err) {
        throw unavailable('get', key)(err)
      }
      return Buffer.concat(chunks)
    },
    async locate(key) {
      checkStorageKey(key)
      let size: number
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        size = head.ContentLength ?? 0
      } catch (err) {
        if (isMissing(err)) return null
        throw unavailable('head', key)(err)
      }
      return {
        size,
        // Only the asked range travels from the bucket; the object is fetched when the stream is first read.
        read: (range) =>
          Readable.from(
            (async function* () {
              const body = await getObject(key, range)
              if (!body) throw new StorageUnavailableError(new Error(`${key} went away while being read`))
              yield* body
            })(),
            { objectMode: false },
          ),
      }
    },
    async delete(key) {
      checkStorageKey(key)
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
      } catch (err) {
        if (isMissing(err)) return
        throw unavailable('delete', key)(err)
      }
    },
  }
}

/** The storage the configuration asks for: the bucket when S3_* is set, else DATA_DIR/uploads. */
export function createConfiguredStorage(config: Pick<Config, 'dataDir' | 's3'>, log: Logger): FileStorage {
  return config.s3 ? createS3Storage(config.s3, log) : createFileStorage(path.join(config.dataDir, 'uploads'))
}
