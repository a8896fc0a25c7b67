import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import { v4 as uuidv4 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestS3, type TestS3 } from '../testing/s3.ts'
import { createLogger } from './log.ts'
import { STORAGE_UNAVAILABLE_MESSAGE, StorageUnavailableError } from './storage.ts'
import { createS3Client, createS3Storage, MULTIPART_FROM, type S3FileStorage } from './storage-s3.ts'

const log = createLogger('silent')
const keyOf = (ext = 'bin') => `image_${uuidv4()}.${ext}`
const bytesOf = (value: string) => new TextEncoder().encode(value)

describe('S3 file storage on s3rver', () => {
  let s3: TestS3
  let storage: S3FileStorage
  beforeAll(async () => {
    s3 = await startTestS3()
    storage = createS3Storage(s3.settings, log)
  })
  afterAll(() => s3?.close())

  test('put then get answers the same bytes; locate gives the size and the whole stream', async () => {
    const key = keyOf()
    await storage.put(key, bytesOf('hello bucket'))
    expect((await storage.get(key))?.toString()).toBe('hello bucket')
    const file = await storage.locate(key)
    expect(file?.size).toBe(12)
    expect(await text(file!.read())).toBe('hello bucket')
  })

  test('a range read asks the bucket for those bytes only, both ends included', async () => {
    const client = createS3Client(s3.settings)
    const asked: (string | undefined)[] = []
    const send = client.send.bind(client)
    client.send = ((command: { input: { Range?: string } }) => {
      if (command instanceof GetObjectCommand) asked.push(command.input.Range)
      return send(command as never)
    }) as typeof client.send
    const ranged = createS3Storage(s3.settings, log, client)
    const key = keyOf()
    await ranged.put(key, bytesOf('0123456789abcdef'))
    const file = await ranged.locate(key)
    expect(await text(file!.read({ start: 3, end: 6 }))).toBe('3456')
    expect(await text(file!.read({ start: 15, end: 15 }))).toBe('f')
    expect(await text(file!.read({ start: 10, end: 15 }))).toBe('abcdef')
    expect(await text(file!.read())).toBe('0123456789abcdef')
    expect(asked).toEqual(['bytes=3-6', 'bytes=15-15', 'bytes=10-15', undefined])
  })

  test('a large body goes up in parts and comes back whole', async () => {
    const key = keyOf('mp4')
    const big = new Uint8Array(MULTIPART_FROM + 123_457)
    for (let i = 0; i < big.length; i += 997) big[i] = i % 251
    await storage.put(key, big)
    const file = await storage.locate(key)
    expect(file?.size).toBe(big.length)
    expect(Buffer.compare((await storage.get(key))!, Buffer.from(big))).toBe(0)
    const tail = Buffer.from(
      await new Response(
        Readable.toWeb(file!.read({ start: big.length - 1000, end: big.length - 1 })) as ReadableStream,
      ).arrayBuffer(),
    )
    expect(Buffer.compare(tail, Buffer.from(big.subarray(big.length - 1000)))).toBe(0)
  })

  test('putStream streams a body of unknown length', async () => {
    const key = keyOf()
    await storage.putStream(key, Readable.from([Buffer.from('one '), Buffer.from('two')]))
    expect((await storage.get(key))?.toString()).toBe('one two')
  })

  test('delete removes the object; a missing object is null for get and locate, and deleting it again is fine', async () => {
    const key = keyOf()
    await storage.put(key, bytesOf('short-lived'))
    await storage.delete(key)
    expect(await storage.get(key)).toBeNull()
    expect(await storage.locate(key)).toBeNull()
    await expect(storage.delete(key)).resolves.toBeUndefined()
    expect(await storage.get(keyOf())).toBeNull()
  })

  test('a key the server does not make never reaches the bucket', async () => {
    for (const key of ['../secrets.json', 'image_x.webp', 'IMAGE_00000000-0000-0000-0000-000000000000.webp']) {
      await expect(storage.put(key, bytesOf('x'))).rejects.toThrow('invalid storage key')
      await expect(storage.get(key)).rejects.toThrow('invalid storage key')
      await expect(storage.locate(key)).rejects.toThrow('invalid storage key')
      await expect(storage.delete(key)).rejects.toThrow('invalid storage key')
    }
  })

  test('a bucket that does not exist is a storage that cannot serve, not a missing file', async () => {
    const nowhere = createS3Storage({ ...s3.settings, bucket: 'no-such-bucket' }, log)
    await expect(nowhere.put(keyOf(), bytesOf('x'))).rejects.toBeInstanceOf(StorageUnavailableError)
    await expect(nowhere.get(keyOf())).rejects.toBeInstanceOf(StorageUnavailableError)
  })

  test('a bucket that is down: every call fails with the 503 storage error, never a null', async () => {
    const down = await startTestS3()
    const storageDown = createS3Storage(down.settings, log)
    const key = keyOf()
    await storageDown.put(key, bytesOf('before'))
    await down.stop()
    try {
      for (const call of [
        () => storageDown.put(keyOf(), bytesOf('after')),
        () => storageDown.get(key),
        () => storageDown.locate(key),
        () => storageDown.delete(key),
      ]) {
        const err = await call().then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(err).toBeInstanceOf(StorageUnavailableError)
        expect(err).toMatchObject({ status: 503, message: STORAGE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' })
      }
    } finally {
      await down.close()
    }
  })
})
