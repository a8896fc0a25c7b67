/** Uploaded files on disk under DATA_DIR/uploads; the interface is what an S3 store would implement next. */

import { createReadStream } from 'node:fs'
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'

export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>
  /** The file's bytes, or null when it does not exist. */
  get(key: string): Promise<Buffer | null>
  /** The file's size and a way to stream its bytes (large files, exports), or null when it does not exist. */
  locate(key: string): Promise<{ size: number; read(): Readable } | null>
  delete(key: string): Promise<void>
}

// Keys are made by the server (kind_uuid.ext); anything else never reaches the disk.
const KEY = /^[a-z]+_[0-9a-f-]{36}\.[a-z0-9]{2,5}$/

/** Where stored files are served (behind a bearer token); a file's URL is this prefix and its key. */
export const SECURE_URL_PREFIX = '/api/uploads/secure/'

export const isStorageKey = (key: string): boolean => KEY.test(key)

export function createFileStorage(root: string): FileStorage {
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error('invalid storage key')
    return path.join(root, key)
  }
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
        return stats.isFile() ? { size: stats.size, read: () => createReadStream(file) } : null
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
