/**
 * Copies the uploaded files under DATA_DIR/uploads into the bucket (`npm run storage:migrate`).
 * Resumable: an object already in the bucket with the file's size is skipped, so a run that was
 * interrupted is simply run again. Each copied object's size is checked against the file's.
 */

import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { isStorageKey } from './storage.ts'
import type { S3FileStorage } from './storage-s3.ts'

export interface MigrationCounts {
  /** Files with a storage key found on disk. */
  files: number
  copied: number
  /** Already in the bucket with the same size (an earlier run). */
  skipped: number
  /** Not copied, or copied with the wrong size: run again. */
  failed: number
  /** Entries that are not uploaded files (left alone). */
  ignored: number
  bytesCopied: number
}

export async function migrateStorage(options: {
  dir: string
  to: Pick<S3FileStorage, 'locate' | 'putStream'>
  /** Files copied at once. */
  concurrency?: number
  /** Progress and failures, one line each. */
  report?: (line: string) => void
}): Promise<MigrationCounts> {
  const { dir, to, concurrency = 4, report = () => {} } = options
  const counts: MigrationCounts = { files: 0, copied: 0, skipped: 0, failed: 0, ignored: 0, bytesCopied: 0 }
  let names: string[]
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return counts
    throw err
  }
  const keys = names.filter(isStorageKey).sort()
  counts.ignored = names.length - keys.length
  counts.files = keys.length

  async function copy(key: string) {
    const file = path.join(dir, key)
    try {
      const { size } = await stat(file)
      const there = await to.locate(key)
      if (there?.size === size) {
        counts.skipped++
        return
      }
      await to.putStream(key, createReadStream(file))
      const copied = await to.locate(key)
      if (copied?.size !== size) {
        counts.failed++
        report(`${key}: ${size} bytes on disk but ${copied?.size ?? 'none'} in the bucket`)
        return
      }
      counts.copied++
      counts.bytesCopied += size
    } catch (err) {
      counts.failed++
      report(`${key}: not copied (${err instanceof Error ? err.message : String(err)})`)
    }
  }

  let next = 0
  let done = 0
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!
      await copy(key)
      if (++done % 100 === 0) report(`${done} of ${keys.length} files`)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  return counts
}
