/**
 * Uploaded files: on disk under DATA_DIR/uploads (the default), or in an S3-compatible bucket
 * (storage-s3.ts) when S3_* is configured. Both implement FileStorage.
 */

import { createReadStream } from 'node:fs'
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { AppError } from './errors.ts'

/** Bytes `start` to `end`, both included (as in an HTTP Range). */
export type ByteRange = { start: number; end: number }

export interface StoredFile {
  size: number
  /** The file's bytes as a stream: all of them, or only `range`. */
  read(range?: ByteRange): Readable
}

export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>
  /** The file's bytes, or null when it does not exist. */
  get(key: string): Promise<Buffer | null>
  /** The file's size and a way to stream its bytes (large files, exports, ranges), or null when it does not exist. */
  locate(key: string): Promise<StoredFile | null>
  delete(key: string): Promise<void>
}

// Keys are made by the server (kind_uuid.ext); anything else never reaches the disk or the bucket.
const KEY = /^[a-z]+_[0-9a-f-]{36}\.[a-z0-9]{2,5}$/

/** Where stored files are served (behind a bearer token); a file's URL is this prefix and its key. */
export const SECURE_URL_PREFIX = '/api/uploads/secure/'

export const isStorageKey = (key: string): boolean => KEY.test(key)

/** Throws before any disk or bucket call when `key` is not one the server makes. */
export function checkStorageKey(key: string): string {
  if (!isStorageKey(key)) throw new Error('invalid storage key')
  return key
}

/** What an answer says when the file storage (the bucket) cannot be reached. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'File storage is unavailable; try again'

/** The storage could not do what was asked (bucket down, refused, timed out): a 503, the request may be retried. */
export class StorageUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('SERVICE_UNAVAILABLE', STORAGE_UNAVAILABLE_MESSAGE, undefined, { 'Retry-After': '2' })
    this.cause = cause
  }
}

export function createFileStorage(root: string): FileStorage {
  const fileOf = (key: string) => path.join(root, checkStorageKey(key))
  return {
    async put(key, bytes) {
      await mkdir(root, { recursive: true })
      await writeFile(fileOf(key), bytes)
    },
    async get(key) {
      try {
        return await readFile(fileOf(key))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async locate(key) {
      const file = fileOf(key)
      try {
        const stats = await stat(file)
        if (!stats.isFile()) return null
        return {
          size: stats.size,
          read: (range) => createReadStream(file, range ? { start: range.start, end: range.end } : undefined),
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true })
    },
  }
}
