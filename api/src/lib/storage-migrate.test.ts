import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { v4 as uuidv4 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestS3, type TestS3 } from '../testing/s3.ts'
import { createLogger } from './log.ts'
import { migrateStorage } from './storage-migrate.ts'
import { createS3Storage, type S3FileStorage } from './storage-s3.ts'

const keyOf = (kind: string, ext: string) => `${kind}_${uuidv4()}.${ext}`
const bytesOf = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + seed) % 256)

describe('storage:migrate from DATA_DIR/uploads to a bucket (s3rver)', () => {
  let s3: TestS3
  let bucket: S3FileStorage
  let dir: string
  beforeAll(async () => {
    s3 = await startTestS3()
    bucket = createS3Storage(s3.settings, createLogger('silent'))
    dir = await mkdtemp(path.join(tmpdir(), 'buble-migrate-'))
  })
  afterAll(async () => {
    await s3?.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** Writes files into a fresh uploads folder: key → bytes. */
  async function uploadsFolder(files: Record<string, Uint8Array>) {
    const folder = await mkdtemp(path.join(dir, 'uploads-'))
    for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(folder, name), bytes)
    return folder
  }
  const inBucket = async (key: string) => bucket.get(key)

  test('copies every file, verifies the sizes, leaves other entries alone, and a second run skips them all', async () => {
    const files = {
      [keyOf('avatar', 'webp')]: bytesOf(1_000, 1),
      [keyOf('image', 'webp')]: bytesOf(70_000, 2),
      [keyOf('story', 'mp4')]: bytesOf(0, 3),
      'notes.txt': bytesOf(10, 4),
    }
    const folder = await uploadsFolder(files)
    const lines: string[] = []
    expect(await migrateStorage({ dir: folder, to: bucket, report: (line) => lines.push(line) })).toEqual({
      files: 3,
      copied: 3,
      skipped: 0,
      failed: 0,
      ignored: 1,
      bytesCopied: 71_000,
    })
    expect(lines).toEqual([])
    for (const [key, bytes] of Object.entries(files)) {
      if (key === 'notes.txt') continue
      expect(Buffer.compare((await inBucket(key))!, Buffer.from(bytes))).toBe(0)
    }
    expect(await migrateStorage({ dir: folder, to: bucket })).toMatchObject({ files: 3, copied: 0, skipped: 3 })
  })

  test('resumes after an interruption: what got there is skipped, the rest and a short object are copied', async () => {
    const keys = Array.from({ length: 6 }, () => keyOf('image', 'webp')).sort()
    const files = Object.fromEntries(keys.map((key, i) => [key, bytesOf(5_000 + i, i)]))
    const folder = await uploadsFolder(files)
    // The first run is cut after two files: every later put fails (the process was killed).
    let puts = 0
    const interrupted = {
      locate: bucket.locate,
      async putStream(key: string, body: Readable) {
        if (++puts > 2) {
          body.destroy()
          throw new Error('interrupted')
        }
        await bucket.putStream(key, body)
      },
    }
    const first = await migrateStorage({ dir: folder, to: interrupted, concurrency: 1 })
    expect(first).toMatchObject({ files: 6, copied: 2, failed: 4 })
    // An object of the wrong size (an older, different copy) is not taken for done.
    await bucket.put(keys[5]!, bytesOf(10, 9))

    const second = await migrateStorage({ dir: folder, to: bucket })
    expect(second).toMatchObject({ files: 6, copied: 4, skipped: 2, failed: 0 })
    for (const key of keys) expect(Buffer.compare((await inBucket(key))!, Buffer.from(files[key]!))).toBe(0)
  })

  test('an object whose size does not match after the copy is reported as failed', async () => {
    const key = keyOf('image', 'webp')
    const folder = await uploadsFolder({ [key]: bytesOf(4_096, 5) })
    const truncating = {
      locate: bucket.locate,
      async putStream(k: string, body: Readable) {
        body.destroy()
        await bucket.putStream(k, Readable.from([Buffer.from(bytesOf(100, 5))]))
      },
    }
    const lines: string[] = []
    const counts = await migrateStorage({ dir: folder, to: truncating, report: (line) => lines.push(line) })
    expect(counts).toMatchObject({ files: 1, copied: 0, failed: 1 })
    expect(lines).toEqual([`${key}: 4096 bytes on disk but 100 in the bucket`])
  })

  test('a bucket that is down fails every file, and nothing is counted as copied', async () => {
    const down = await startTestS3()
    const folder = await uploadsFolder({ [keyOf('avatar', 'webp')]: bytesOf(50, 6) })
    await down.stop()
    try {
      const counts = await migrateStorage({ dir: folder, to: createS3Storage(down.settings, createLogger('silent')) })
      expect(counts).toMatchObject({ files: 1, copied: 0, failed: 1 })
    } finally {
      await down.close()
    }
  })

  test('no uploads folder: nothing to do', async () => {
    expect(await migrateStorage({ dir: path.join(dir, 'none'), to: bucket })).toMatchObject({ files: 0, failed: 0 })
  })
})
