import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { text } from 'node:stream/consumers'
import { v4 as uuidv4 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFileStorage, type FileStorage } from './storage.ts'

describe('file storage on disk', () => {
  let root: string
  let storage: FileStorage
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'buble-storage-'))
    storage = createFileStorage(path.join(root, 'uploads'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  test('put, get, locate with the size, a whole read and a range read (both ends included), delete', async () => {
    const key = `story_${uuidv4()}.mp4`
    await storage.put(key, new TextEncoder().encode('0123456789'))
    expect((await storage.get(key))?.toString()).toBe('0123456789')
    const file = await storage.locate(key)
    expect(file?.size).toBe(10)
    expect(await text(file!.read())).toBe('0123456789')
    expect(await text(file!.read({ start: 2, end: 4 }))).toBe('234')
    expect(await text(file!.read({ start: 9, end: 9 }))).toBe('9')
    await storage.delete(key)
    expect(await storage.get(key)).toBeNull()
    expect(await storage.locate(key)).toBeNull()
    await expect(storage.delete(key)).resolves.toBeUndefined()
  })

  test('a key the server does not make never reaches the disk', async () => {
    await expect(storage.put('../../etc/passwd', new Uint8Array(1))).rejects.toThrow('invalid storage key')
    await expect(storage.locate('avatar_x.webp')).rejects.toThrow('invalid storage key')
  })
})
