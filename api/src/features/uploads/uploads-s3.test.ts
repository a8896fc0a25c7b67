/**
 * The upload suites again, with every file in a bucket (s3rver on 127.0.0.1) through the S3 storage,
 * and what a bucket that is down does to an upload and a read.
 */

import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { uploads } from '../../db/schema.ts'
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../lib/storage.ts'
import { createS3Client } from '../../lib/storage-s3.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, useS3InHarness } from '../../testing/harness.ts'

useS3InHarness()
await import('./routes.test.ts')
await import('./buble-files.test.ts')
await import('./files.test.ts')

describe.each(backends())('a bucket that is down, on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const png = () =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer()
  const uploadAvatar = async (token: string) => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'me.png')
    return h.app.request('/api/uploads/avatar', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  }
  const objectsInBucket = async () => {
    const s3 = h.s3!
    const listed = await createS3Client(s3.settings).send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }))
    return (listed.Contents ?? []).map((object) => object.Key)
  }
  const rowsOf = async (userId: string) => h.database.db.select().from(uploads).where(eq(uploads.ownerId, userId))

  test('an upload is refused with 503 and the clear message, and nothing is stored: no row, no object', async () => {
    const user = await h.register()
    const stored = await uploadAvatar(user.token)
    expect(stored.status).toBe(200)
    const { url } = (await stored.json()) as { url: string }
    const before = await objectsInBucket()

    await h.s3!.stop()
    try {
      const refused = await uploadAvatar(user.token)
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('2')
      expect(await refused.json()).toEqual({ message: STORAGE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' })
      // Reading is refused the same way, not answered as a missing file.
      const read = await h.call('GET', url, { token: user.token })
      expect(read.status).toBe(503)
      expect((await read.json()).message).toBe(STORAGE_UNAVAILABLE_MESSAGE)
    } finally {
      await h.s3!.start()
    }
    expect(await rowsOf(user.id)).toHaveLength(1)
    expect(await objectsInBucket()).toEqual(before)
    // The bucket is back: the same upload goes through, and the first file is served again.
    expect((await uploadAvatar(user.token)).status).toBe(200)
    expect((await h.call('GET', url, { token: user.token })).status).toBe(200)
  })

  test('a row that cannot be written takes its object away again', async () => {
    const user = await h.register()
    const before = await objectsInBucket()
    // The file is in the bucket by then; the insert of its row fails.
    const insert = h.database.db.insert.bind(h.database.db)
    let failed = false
    h.database.db.insert = ((table: typeof uploads) => {
      if (table === uploads) {
        failed = true
        throw new Error('the row could not be written')
      }
      return insert(table)
    }) as typeof h.database.db.insert
    try {
      expect((await uploadAvatar(user.token)).status).toBe(500)
    } finally {
      h.database.db.insert = insert
    }
    expect(failed).toBe(true)
    expect(await rowsOf(user.id)).toHaveLength(0)
    expect(await objectsInBucket()).toEqual(before)
  })
})
