import sharp from 'sharp'
import { v4 as uuidv4 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SECURE_URL_PREFIX as SECURE_PREFIX } from '../../lib/storage.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse } from '../../testing/harness.ts'
import { USER_MESSAGES } from '../profile/service.ts'
import { AVATAR_SIZE, UPLOAD_MESSAGES } from './service.ts'

const MB = 1024 * 1024
// The GPS IFD pointer tag (0x8825) as it sits in a little-endian EXIF block.
const GPS_POINTER = Buffer.from([0x25, 0x88])

const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 220, g: 60, b: 40 } } })

/** A JPEG carrying camera EXIF and a GPS position: what a phone photo looks like. */
const jpegWithGps = () =>
  canvas(1600, 1200)
    .jpeg()
    .withExif({
      IFD0: { Make: 'SpyCam', Model: 'Tracker 3000', Copyright: 'Ada Lovelace' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '59/1 19/1 4/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '18/1 4/1 6/1',
      },
    })
    .toBuffer()

describe.each(backends())('uploads on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const upload = (token: string | undefined, form: FormData): Promise<TestResponse> =>
    Promise.resolve(
      h.app.request('/api/uploads/avatar', {
        method: 'POST',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: form,
      }),
    )
  const formWith = (bytes: Uint8Array, name: string, type: string) => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
    return form
  }
  const uploadAvatar = async (token: string, bytes: Uint8Array, name = 'photo.jpg', type = 'image/jpeg') => {
    const res = await upload(token, formWith(bytes, name, type))
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(Object.keys(body)).toEqual(['url'])
    expect(body.url.startsWith(SECURE_PREFIX)).toBe(true)
    return body.url as string
  }
  const fetchFile = (url: string, token?: string) => h.call('GET', url, { token })
  const expectRefused = async (res: TestResponse, status: number, code: string, message?: string) => {
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.code).toBe(code)
    if (message) expect(body.message).toBe(message)
  }

  test('a JPEG with EXIF and GPS comes back as a WebP of at most 512 px with no metadata at all', async () => {
    const { token } = await h.register()
    const original = await jpegWithGps()
    const before = await sharp(original).metadata()
    // The fixture really carries what must be stripped.
    expect(before.exif).toBeDefined()
    expect(before.exif!.includes(GPS_POINTER)).toBe(true)
    expect(before.exif!.includes(Buffer.from('Tracker 3000'))).toBe(true)

    const url = await uploadAvatar(token, original)
    const res = await fetchFile(url, token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-disposition')).toBe('inline')
    const bytes = Buffer.from(await res.arrayBuffer())
    const after = await sharp(bytes).metadata()
    expect(after.format).toBe('webp')
    expect(after.exif).toBeUndefined()
    expect(after.xmp).toBeUndefined()
    expect(after.width).toBeLessThanOrEqual(AVATAR_SIZE)
    expect(after.height).toBeLessThanOrEqual(AVATAR_SIZE)
    for (const text of ['SpyCam', 'Tracker 3000', 'Ada Lovelace', 'Exif', 'EXIF']) {
      expect(bytes.includes(Buffer.from(text))).toBe(false)
    }
  })

  test('another signed-in user can see an avatar, but nobody without a token can', async () => {
    const owner = await h.register()
    const viewer = await h.register()
    const url = await uploadAvatar(owner.token, await canvas(64, 64).png().toBuffer(), 'a.png', 'image/png')
    expect((await fetchFile(url, viewer.token)).status).toBe(200)
    await expectRefused(await fetchFile(url), 401, 'UNAUTHORIZED')
  })

  test.each([
    ['PNG', 'a.png', 'image/png', () => canvas(300, 200).png().toBuffer()],
    ['GIF', 'a.gif', 'image/gif', () => canvas(120, 80).gif().toBuffer()],
    ['WebP', 'a.webp', 'image/webp', () => canvas(900, 900).webp().toBuffer()],
    ['small JPEG', 'a.jpg', 'image/jpeg', () => canvas(40, 30).jpeg().toBuffer()],
  ])('a %s is accepted and served as a WebP no larger than 512 px', async (_kind, name, type, make) => {
    const { token } = await h.register()
    const url = await uploadAvatar(token, await make(), name, type)
    const res = await fetchFile(url, token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    expect(meta.format).toBe('webp')
    expect(meta.width).toBeLessThanOrEqual(AVATAR_SIZE)
    expect(meta.height).toBeLessThanOrEqual(AVATAR_SIZE)
  })

  test('the declared name and type do not matter: a PNG sent as "photo.txt" text/plain is judged by its bytes', async () => {
    const { token } = await h.register()
    await uploadAvatar(token, await canvas(50, 50).png().toBuffer(), 'photo.txt', 'text/plain')
  })

  test.each([
    ['HTML', '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'],
    [
      'SVG',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    ],
    ['plain text', 'just some words, nothing to see here'],
    ['JavaScript', 'fetch("/api/users/profile").then((r) => r.text()).then(console.log)'],
    ['a PDF', '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF'],
  ])('%s named evil.png and declared image/png is a 415', async (_kind, content) => {
    const { token } = await h.register()
    const res = await upload(token, formWith(new TextEncoder().encode(content), 'evil.png', 'image/png'))
    await expectRefused(res, 415, 'UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notImage)
  })

  test('a PNG header followed by garbage is a 415', async () => {
    const { token } = await h.register()
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const ihdr = Buffer.from('0000000d49484452', 'hex')
    const garbage = Buffer.alloc(4096, 0x5a)
    const res = await upload(token, formWith(Buffer.concat([header, ihdr, garbage]), 'broken.png', 'image/png'))
    await expectRefused(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('a truncated JPEG is a 415', async () => {
    const { token } = await h.register()
    const whole = await canvas(400, 400).jpeg().toBuffer()
    const res = await upload(token, formWith(whole.subarray(0, 40), 'cut.jpg', 'image/jpeg'))
    await expectRefused(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('a file just over 5 MB is a 413, and so is a much larger one', async () => {
    const { token } = await h.register()
    const png = await canvas(10, 10).png().toBuffer()
    const justOver = Buffer.concat([png, Buffer.alloc(5 * MB + 1 - png.length)])
    expect(justOver.length).toBe(5 * MB + 1)
    await expectRefused(
      await upload(token, formWith(justOver, 'big.png', 'image/png')),
      413,
      'PAYLOAD_TOO_LARGE',
      UPLOAD_MESSAGES.avatarTooLarge,
    )
    const huge = Buffer.concat([png, Buffer.alloc(8 * MB)])
    await expectRefused(
      await upload(token, formWith(huge, 'huge.png', 'image/png')),
      413,
      'PAYLOAD_TOO_LARGE',
      UPLOAD_MESSAGES.avatarTooLarge,
    )
  })

  test('a request without a file is a 400 naming the file', async () => {
    const { token } = await h.register()
    const empty = new FormData()
    empty.append('note', 'no file here')
    const res = await upload(token, empty)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: UPLOAD_MESSAGES.noFile,
      issues: [{ path: 'file', message: UPLOAD_MESSAGES.noFile }],
    })
    const asText = new FormData()
    asText.append('file', 'a string, not a file')
    await expectRefused(await upload(token, asText), 400, 'VALIDATION_ERROR', UPLOAD_MESSAGES.noFile)
    await expectRefused(
      await h.call('POST', '/api/uploads/avatar', { token, body: { file: 'x' } }),
      400,
      'VALIDATION_ERROR',
    )
  })

  test('uploading without a token is a 401 and stores nothing', async () => {
    const res = await upload(undefined, formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png'))
    await expectRefused(res, 401, 'UNAUTHORIZED')
  })

  test('an unknown or malformed key is a 404, including attempts to climb out of the upload folder', async () => {
    const { token } = await h.register()
    for (const key of [
      `avatar_${uuidv4()}.webp`,
      'secrets.json',
      '..%2Fsecrets.json',
      '..%2F..%2Fsecrets.json',
      '%2Fetc%2Fpasswd',
      'avatar_..%2F..%2Fsecrets.json',
    ]) {
      await expectRefused(await fetchFile(`${SECURE_PREFIX}${key}`, token), 404, 'NOT_FOUND')
    }
  })

  test('an uploaded avatar can be set on the profile and shows there, and can be removed again', async () => {
    const { token } = await h.register()
    const url = await uploadAvatar(token, await jpegWithGps())
    const put = await h.call('PUT', '/api/users/profile', { token, body: { avatar_url: url } })
    expect(put.status).toBe(200)
    expect((await put.json()).avatar_url).toBe(url)
    const profile = await (await h.call('GET', '/api/users/profile', { token })).json()
    expect(profile.avatar_url).toBe(url)
    const cleared = await h.call('PUT', '/api/users/profile', { token, body: { avatar_url: null } })
    expect((await cleared.json()).avatar_url).toBeNull()
  })

  test("someone else's avatar, a made-up upload and an outside URL are refused as avatar_url", async () => {
    const alice = await h.register()
    const mallory = await h.register()
    const alicesUrl = await uploadAvatar(alice.token, await canvas(64, 64).png().toBuffer(), 'a.png', 'image/png')
    for (const avatar_url of [alicesUrl, `${SECURE_PREFIX}avatar_${uuidv4()}.webp`, `${SECURE_PREFIX}whatever`]) {
      const res = await h.call('PUT', '/api/users/profile', { token: mallory.token, body: { avatar_url } })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message: USER_MESSAGES.badAvatar })
      expect(body.issues).toEqual([{ path: 'avatar_url', message: USER_MESSAGES.badAvatar }])
    }
    const outside = await h.call('PUT', '/api/users/profile', {
      token: mallory.token,
      body: { avatar_url: 'https://evil.example/tracker.png' },
    })
    expect(outside.status).toBe(400)
    expect((await outside.json()).issues[0].path).toBe('avatar_url')
    const profile = await (await h.call('GET', '/api/users/profile', { token: mallory.token })).json()
    expect(profile.avatar_url).toBeNull()
  })
})
