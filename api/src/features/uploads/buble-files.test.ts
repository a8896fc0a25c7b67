import { eq } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import { v4 as uuidv4 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { uploads } from '../../db/schema.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse } from '../../testing/harness.ts'
import {
  box,
  GPS,
  mp4Layout,
  PERSONAL,
  phoneMp4,
  recordedWebm,
  seekableWebm,
  u32,
} from '../../testing/video-fixtures.ts'
import { IMAGE_MAX_SIDE, isBubleFile, UPLOAD_MESSAGES } from './service.ts'

const MB = 1024 * 1024
const GPS_POINTER = Buffer.from([0x25, 0x88])

const canvas = (width: number, height: number, r = 220) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 60, b: 40 } } })

const jpegWithGps = () =>
  canvas(3000, 2000)
    .jpeg()
    .withExif({
      IFD0: { Make: 'SpyCam', Model: 'Tracker 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 20/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 0/1' },
    })
    .toBuffer()

/** An animated GIF of `frames` alternating colours. */
const animatedGif = async (frames: number) => {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      canvas(80, 60, i % 2 ? 20 : 240)
        .png()
        .toBuffer(),
    ),
  )
  return sharp(pages, { join: { animated: true } })
    .gif()
    .toBuffer()
}

/** A WebM as MediaRecorder writes it, without metadata. */
const webm = () => recordedWebm({ withTags: false }).file

type User = { token: string; id: string }

describe.each(backends())('buble files on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const newBuble = async (owner: User, ...members: User[]): Promise<string> => {
    const created = await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Photo club' } })
    expect(created.status).toBe(201)
    const { id } = await created.json()
    for (const member of members) {
      const invited = await h.call('POST', `/api/bubles/${id}/invites`, { token: owner.token, body: {} })
      const { code } = await invited.json()
      const joined = await h.call('POST', `/api/bubles/invites/${encodeURIComponent(code)}/accept`, {
        token: member.token,
      })
      expect(joined.status).toBe(200)
    }
    return id
  }
  /** An owner and a member of one buble, and a stranger to it. */
  const scene = async () => {
    const [owner, member, stranger] = await Promise.all([h.register(), h.register(), h.register()])
    return { owner, member, stranger, bubleId: await newBuble(owner, member) }
  }

  const formWith = (bytes: Uint8Array, name: string, type: string, bubleId?: string) => {
    const form = new FormData()
    if (bubleId !== undefined) form.append('buble_id', bubleId)
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
    return form
  }
  const post = (route: 'image' | 'story' | 'avatar', token: string | undefined, form: FormData) =>
    Promise.resolve(
      h.app.request(`/api/uploads/${route}`, {
        method: 'POST',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: form,
      }),
    ) as Promise<TestResponse>
  const uploadOk = async (route: 'image' | 'story', token: string, form: FormData) => {
    const res = await post(route, token, form)
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body.url.startsWith(SECURE_URL_PREFIX)).toBe(true)
    return body as { url: string; media_type?: string }
  }
  const fetchFile = (url: string, token?: string, headers?: Record<string, string>) =>
    h.call('GET', url, { token, headers })
  const fetchBytes = async (url: string, token: string) => {
    const res = await fetchFile(url, token)
    expect(res.status).toBe(200)
    return Buffer.from(await res.arrayBuffer())
  }
  const expectRefused = async (res: TestResponse, status: number, code: string, message?: string) => {
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.code).toBe(code)
    if (message) expect(body.message).toBe(message)
    return body
  }
  const rowsOf = (ownerId: string) => h.database.db.select().from(uploads).where(eq(uploads.ownerId, ownerId))
  const rowOf = async (url: string) =>
    (
      await h.database.db
        .select()
        .from(uploads)
        .where(eq(uploads.key, url.slice(SECURE_URL_PREFIX.length)))
    )[0]

  describe('images', () => {
    test('a member uploads an image; another member sees it inline as WebP; it is recorded against the buble', async () => {
      const { owner, member, bubleId } = await scene()
      const { url, ...rest } = await uploadOk(
        'image',
        owner.token,
        formWith(await canvas(300, 200).png().toBuffer(), 'a.png', 'image/png', bubleId),
      )
      expect(rest).toEqual({})
      const res = await fetchFile(url, member.token)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/webp')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-disposition')).toBe('inline')
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+/)
      const bytes = Buffer.from(await res.arrayBuffer())
      expect((await sharp(bytes).metadata()).format).toBe('webp')
      expect(await rowOf(url)).toMatchObject({
        kind: 'image',
        ownerId: owner.id,
        bubleId,
        contentType: 'image/webp',
        size: bytes.length,
      })
    })

    test('EXIF and GPS are gone from the served file, and a large photo is bounded on its longest side', async () => {
      const { owner, member, bubleId } = await scene()
      const original = await jpegWithGps()
      const before = await sharp(original).metadata()
      expect(before.exif?.includes(GPS_POINTER)).toBe(true)
      const { url } = await uploadOk('image', member.token, formWith(original, 'p.jpg', 'image/jpeg', bubleId))
      const served = await fetchBytes(url, owner.token)
      const after = await sharp(served).metadata()
      expect(after.exif).toBeUndefined()
      expect(after.xmp).toBeUndefined()
      expect([after.width, after.height]).toEqual([IMAGE_MAX_SIDE, Math.round((IMAGE_MAX_SIDE * 2) / 3)])
      for (const text of ['SpyCam', 'Tracker 3000', 'Exif']) expect(served.includes(Buffer.from(text))).toBe(false)
    })

    test('a small image is not enlarged, and an animated GIF keeps its frames', async () => {
      const { owner, bubleId } = await scene()
      const small = await uploadOk(
        'image',
        owner.token,
        formWith(await canvas(40, 30).jpeg().toBuffer(), 's.jpg', 'image/jpeg', bubleId),
      )
      const smallMeta = await sharp(await fetchBytes(small.url, owner.token)).metadata()
      expect([smallMeta.width, smallMeta.height]).toEqual([40, 30])
      const gif = await uploadOk('image', owner.token, formWith(await animatedGif(4), 'a.gif', 'image/gif', bubleId))
      const gifMeta = await sharp(await fetchBytes(gif.url, owner.token), { animated: true }).metadata()
      expect(gifMeta.format).toBe('webp')
      expect(gifMeta.pages).toBe(4)
    })

    test('a stranger uploading is a 404 before anything is stored, and so is a made-up buble', async () => {
      const { stranger, bubleId } = await scene()
      const png = await canvas(20, 20).png().toBuffer()
      for (const route of ['image', 'story'] as const) {
        for (const id of [bubleId, uuidv4()]) {
          await expectRefused(
            await post(route, stranger.token, formWith(png, 'a.png', 'image/png', id)),
            404,
            'NOT_FOUND',
          )
        }
        // Even a file that would be refused for its type: a stranger learns nothing from the answer.
        const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')
        await expectRefused(
          await post(route, stranger.token, formWith(svg, 'a.svg', 'image/svg+xml', bubleId)),
          404,
          'NOT_FOUND',
        )
      }
      expect(await rowsOf(stranger.id)).toEqual([])
    })

    test('a stranger fetching a buble file gets the same 404 as for a file that does not exist', async () => {
      const { owner, stranger, bubleId } = await scene()
      const { url } = await uploadOk(
        'image',
        owner.token,
        formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png', bubleId),
      )
      const forbidden = await expectRefused(await fetchFile(url, stranger.token), 404, 'NOT_FOUND')
      const missing = await expectRefused(
        await fetchFile(`${SECURE_URL_PREFIX}image_${uuidv4()}.webp`, stranger.token),
        404,
        'NOT_FOUND',
      )
      expect(forbidden).toEqual(missing)
    })

    test('a member who leaves can no longer fetch the buble files', async () => {
      const { owner, member, bubleId } = await scene()
      const { url } = await uploadOk(
        'image',
        owner.token,
        formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png', bubleId),
      )
      expect((await fetchFile(url, member.token)).status).toBe(200)
      const left = await h.call('DELETE', `/api/bubles/${bubleId}/members/${member.id}`, { token: member.token })
      expect(left.status).toBe(204)
      await expectRefused(await fetchFile(url, member.token), 404, 'NOT_FOUND')
    })

    test('without a bearer token, uploading and fetching are 401', async () => {
      const { owner, bubleId } = await scene()
      const png = await canvas(20, 20).png().toBuffer()
      const { url } = await uploadOk('image', owner.token, formWith(png, 'a.png', 'image/png', bubleId))
      await expectRefused(
        await post('image', undefined, formWith(png, 'a.png', 'image/png', bubleId)),
        401,
        'UNAUTHORIZED',
      )
      await expectRefused(
        await post('story', undefined, formWith(png, 'a.png', 'image/png', bubleId)),
        401,
        'UNAUTHORIZED',
      )
      await expectRefused(await fetchFile(url), 401, 'UNAUTHORIZED')
    })

    test.each([
      ['missing', undefined],
      ['not a UUID', 'photo-club'],
      ['empty', ''],
    ])('a buble_id that is %s is a 400 naming buble_id', async (_case, id) => {
      const { owner } = await scene()
      const res = await post(
        'image',
        owner.token,
        formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png', id),
      )
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        code: 'VALIDATION_ERROR',
        message: UPLOAD_MESSAGES.badBubleId,
        issues: [{ path: 'buble_id', message: UPLOAD_MESSAGES.badBubleId }],
      })
    })

    test('a member sending no file is a 400 naming the file', async () => {
      const { owner, bubleId } = await scene()
      const form = new FormData()
      form.append('buble_id', bubleId)
      const body = await expectRefused(
        await post('image', owner.token, form),
        400,
        'VALIDATION_ERROR',
        UPLOAD_MESSAGES.noFile,
      )
      expect(body.issues).toEqual([{ path: 'file', message: UPLOAD_MESSAGES.noFile }])
    })
  })

  describe('refused types and sizes', () => {
    test.each([
      ['a script', 'x.png', 'image/png', 'alert(document.cookie)'],
      [
        'an SVG',
        'x.svg',
        'image/svg+xml',
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      ],
      ['HTML', 'x.png', 'image/png', '<!doctype html><script>alert(1)</script>'],
      [
        'a PDF',
        'x.jpg',
        'image/jpeg',
        '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF',
      ],
    ])('%s named %s is a 415 on both routes', async (_kind, name, type, content) => {
      const { owner, bubleId } = await scene()
      const bytes = new TextEncoder().encode(content)
      await expectRefused(
        await post('image', owner.token, formWith(bytes, name, type, bubleId)),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        UPLOAD_MESSAGES.notImage,
      )
      await expectRefused(
        await post('story', owner.token, formWith(bytes, name, type, bubleId)),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        UPLOAD_MESSAGES.notStoryMedia,
      )
      expect(await rowsOf(owner.id)).toEqual([])
    })

    test('a video is not an image: the image route refuses a WebM with 415', async () => {
      const { owner, bubleId } = await scene()
      await expectRefused(
        await post('image', owner.token, formWith(webm(), 'v.webm', 'video/webm', bubleId)),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      )
    })

    test('an image over 10 MB is a 413 on both routes; a story over 50 MB is a 413', async () => {
      const { owner, bubleId } = await scene()
      const png = await canvas(10, 10).png().toBuffer()
      const eleven = Buffer.concat([png, Buffer.alloc(11 * MB)])
      await expectRefused(
        await post('image', owner.token, formWith(eleven, 'big.png', 'image/png', bubleId)),
        413,
        'PAYLOAD_TOO_LARGE',
        UPLOAD_MESSAGES.imageTooLarge,
      )
      await expectRefused(
        await post('story', owner.token, formWith(eleven, 'big.png', 'image/png', bubleId)),
        413,
        'PAYLOAD_TOO_LARGE',
        UPLOAD_MESSAGES.imageTooLarge,
      )
      const video = Buffer.concat([webm(), Buffer.alloc(50 * MB + 1)])
      await expectRefused(
        await post('story', owner.token, formWith(video, 'big.webm', 'video/webm', bubleId)),
        413,
        'PAYLOAD_TOO_LARGE',
        UPLOAD_MESSAGES.storyTooLarge,
      )
      expect(await rowsOf(owner.id)).toEqual([])
    })

    test('an endless body without a length is cut off once it passes the limit, not buffered whole', async () => {
      const { owner } = await scene()
      let sent = 0
      const chunk = new Uint8Array(MB)
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 200 * MB) return controller.close()
          sent += chunk.length
          controller.enqueue(chunk)
        },
      })
      const res = (await h.app.request('/api/uploads/image', {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'multipart/form-data; boundary=x' },
        body,
        duplex: 'half',
      } as RequestInit)) as TestResponse
      await expectRefused(res, 413, 'PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.imageTooLarge)
      expect(sent).toBeLessThan(16 * MB)
    })
  })

  describe('stories', () => {
    test('a WebM story is stored as sent, answered as a video, and served inline with ranges', async () => {
      const { owner, member, bubleId } = await scene()
      const video = webm()
      const body = await uploadOk(
        'story',
        owner.token,
        formWith(video, 'clip.bin', 'application/octet-stream', bubleId),
      )
      expect(body.media_type).toBe('video')
      expect(await rowOf(body.url)).toMatchObject({
        kind: 'story',
        bubleId,
        contentType: 'video/webm',
        size: video.length,
      })

      const whole = await fetchFile(body.url, member.token)
      expect(whole.status).toBe(200)
      expect(whole.headers.get('content-type')).toBe('video/webm')
      expect(whole.headers.get('content-disposition')).toBe('inline')
      expect(whole.headers.get('accept-ranges')).toBe('bytes')
      expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true)

      const size = video.length
      for (const [range, start, end] of [
        ['bytes=0-99', 0, 99],
        ['bytes=100-', 100, size - 1],
        ['bytes=-10', size - 10, size - 1],
        [`bytes=10-${size + 500}`, 10, size - 1],
        [`bytes=-${size + 500}`, 0, size - 1],
      ] as const) {
        const res = await fetchFile(body.url, member.token, { range })
        expect(res.status, range).toBe(206)
        expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`)
        expect(res.headers.get('content-type')).toBe('video/webm')
        expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true)
      }
      for (const range of [`bytes=${size}-`, `bytes=${size + 1}-${size + 9}`, 'bytes=-0']) {
        const res = await fetchFile(body.url, member.token, { range })
        expect(res.status, range).toBe(416)
        expect(res.headers.get('content-range')).toBe(`bytes */${size}`)
      }
      // Several ranges, a backwards one or another unit: the whole file, as RFC 9110 allows.
      for (const range of ['bytes=0-1,5-9', 'bytes=9-1', 'items=0-1', 'bytes=abc']) {
        const res = await fetchFile(body.url, member.token, { range })
        expect(res.status, range).toBe(200)
        expect((await res.arrayBuffer()).byteLength).toBe(size)
      }
      // A range asks nothing of the rules: a stranger still gets the 404.
      const { stranger } = await scene()
      await expectRefused(await fetchFile(body.url, stranger.token, { range: 'bytes=0-9' }), 404, 'NOT_FOUND')
    })

    test("an MP4 story keeps its frames byte for byte, but the phone's GPS (udta, meta, XMP uuid, a GPS track) and model are blanked", async () => {
      const { owner, member, bubleId } = await scene()
      const { file, mdat, videoChunks } = phoneMp4()
      expect(file.includes(Buffer.from(GPS))).toBe(true)
      const body = await uploadOk('story', owner.token, formWith(file, 'clip.mp4', 'video/mp4', bubleId))
      expect(body.media_type).toBe('video')
      const served = await fetchBytes(body.url, member.token)
      expect(served.length).toBe(file.length)
      // Nothing moved: the mdat where it was, with the video's chunks at the offsets the moov gives.
      expect(served.indexOf(mdat.subarray(0, 8))).toBe(file.indexOf(mdat.subarray(0, 8)))
      for (const chunk of videoChunks)
        expect(served.subarray(chunk.start, chunk.start + chunk.bytes.length).equals(chunk.bytes)).toBe(true)
      expect(mp4Layout(served).map((b) => b.type)).toEqual(['ftyp', 'free', 'moov', 'free', 'mdat'])
      for (const text of [...PERSONAL, 'udta', 'xmpmeta']) expect(served.includes(Buffer.from(text)), text).toBe(false)
      expect(await fileTypeFromBuffer(served)).toEqual({ ext: 'mp4', mime: 'video/mp4' })
    })

    test('a WebM story loses its Tags (LOCATION), Title and track name; its clusters are byte for byte the same', async () => {
      const { owner, member, bubleId } = await scene()
      const { file, kept } = seekableWebm()
      expect(file.includes(Buffer.from(GPS))).toBe(true)
      const body = await uploadOk('story', owner.token, formWith(file, 'clip.webm', 'video/webm', bubleId))
      expect(body.media_type).toBe('video')
      expect(await rowOf(body.url)).toMatchObject({ contentType: 'video/webm', size: file.length })
      const served = await fetchBytes(body.url, member.token)
      expect(served.length).toBe(file.length)
      for (const text of PERSONAL) expect(served.includes(Buffer.from(text)), text).toBe(false)
      for (const part of [kept.cluster, kept.cues])
        expect(served.subarray(part.start, part.end).equals(file.subarray(part.start, part.end))).toBe(true)
      expect(await fileTypeFromBuffer(served)).toEqual({ ext: 'webm', mime: 'video/webm' })
    })

    test('a WebM whose elements do not add up is a 415', async () => {
      const { owner, bubleId } = await scene()
      const broken = seekableWebm().file.subarray(0, 400)
      await expectRefused(
        await post('story', owner.token, formWith(broken, 'b.webm', 'video/webm', bubleId)),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        UPLOAD_MESSAGES.unreadableVideo,
      )
    })

    test('an MP4 whose boxes do not add up is a 415', async () => {
      const { owner, bubleId } = await scene()
      const broken = Buffer.concat([
        box('ftyp', 'isom', u32(0x200), 'isomiso2'),
        u32(1_000_000),
        Buffer.from('moov'),
        Buffer.alloc(64),
      ])
      await expectRefused(
        await post('story', owner.token, formWith(broken, 'b.mp4', 'video/mp4', bubleId)),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        UPLOAD_MESSAGES.unreadableVideo,
      )
    })

    test('a picture story is re-encoded like any buble image and answered as an image', async () => {
      const { owner, member, bubleId } = await scene()
      const body = await uploadOk('story', owner.token, formWith(await jpegWithGps(), 'p.jpg', 'image/jpeg', bubleId))
      expect(body.media_type).toBe('image')
      expect(Object.keys(body).sort()).toEqual(['media_type', 'url'])
      const res = await fetchFile(body.url, member.token)
      expect(res.headers.get('content-type')).toBe('image/webp')
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).exif).toBeUndefined()
      expect(await rowOf(body.url)).toMatchObject({ kind: 'story', bubleId, contentType: 'image/webp' })
    })
  })

  describe('for the services that reference files', () => {
    const image = async (token: string, bubleId: string) =>
      (await uploadOk('image', token, formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png', bubleId)))
        .url
    const avatar = async (token: string) => {
      const res = await post('avatar', token, formWith(await canvas(20, 20).png().toBuffer(), 'a.png', 'image/png'))
      expect(res.status).toBe(200)
      return (await res.json()).url as string
    }

    test('isBubleFile is true only for an image or story of that very buble', async () => {
      const { owner, bubleId } = await scene()
      const otherBuble = await newBuble(owner)
      const mine = await image(owner.token, bubleId)
      const story = (await uploadOk('story', owner.token, formWith(webm(), 'v.webm', 'video/webm', bubleId))).url
      const elsewhere = await image(owner.token, otherBuble)
      const face = await avatar(owner.token)
      const db = h.database.db
      expect(await isBubleFile(db, mine, bubleId)).toBe(true)
      expect(await isBubleFile(db, story, bubleId)).toBe(true)
      expect(await isBubleFile(db, elsewhere, bubleId)).toBe(false)
      expect(await isBubleFile(db, mine, otherBuble)).toBe(false)
      expect(await isBubleFile(db, face, bubleId)).toBe(false)
      for (const url of [
        `${SECURE_URL_PREFIX}image_${uuidv4()}.webp`,
        'https://evil.example/a.png',
        `${SECURE_URL_PREFIX}../x`,
      ]) {
        expect(await isBubleFile(db, url, bubleId)).toBe(false)
      }
      expect(await isBubleFile(db, mine, 'not-a-uuid')).toBe(false)
    })

    test('forgetFiles removes rows and files of buble urls, and leaves avatars, nulls and outside urls alone', async () => {
      const { owner, member, bubleId } = await scene()
      const [first, second, kept] = [
        await image(owner.token, bubleId),
        await image(owner.token, bubleId),
        await image(owner.token, bubleId),
      ]
      const face = await avatar(owner.token)
      const missing = `${SECURE_URL_PREFIX}image_${uuidv4()}.webp`
      await h.services.uploads.forgetFiles([
        first,
        second,
        second,
        null,
        undefined,
        face,
        missing,
        'https://x.example/a.png',
      ])
      for (const url of [first, second]) {
        await expectRefused(await fetchFile(url, member.token), 404, 'NOT_FOUND')
        expect(await rowOf(url)).toBeUndefined()
        expect(await h.deps.storage.get(url.slice(SECURE_URL_PREFIX.length))).toBeNull()
      }
      expect((await fetchFile(kept, member.token)).status).toBe(200)
      expect((await fetchFile(face, member.token)).status).toBe(200)
      // A file already gone from the disk is no error.
      await h.deps.storage.delete(kept.slice(SECURE_URL_PREFIX.length))
      await expect(h.services.uploads.forgetFiles([kept])).resolves.toBeUndefined()
      expect(await rowOf(kept)).toBeUndefined()
      await expect(h.services.uploads.forgetFiles([])).resolves.toBeUndefined()
    })

    test("forgetBubleFiles removes every file of that buble and nothing of another's", async () => {
      const { owner, member, bubleId } = await scene()
      const otherBuble = await newBuble(owner, member)
      const here = [
        await image(owner.token, bubleId),
        await image(member.token, bubleId),
        (await uploadOk('story', member.token, formWith(webm(), 'v.webm', 'video/webm', bubleId))).url,
      ]
      const there = await image(owner.token, otherBuble)
      await h.services.uploads.forgetBubleFiles(bubleId)
      for (const url of here) {
        expect(await rowOf(url)).toBeUndefined()
        expect(await h.deps.storage.get(url.slice(SECURE_URL_PREFIX.length))).toBeNull()
      }
      expect((await fetchFile(there, member.token)).status).toBe(200)
      await expect(h.services.uploads.forgetBubleFiles(uuidv4())).resolves.toBeUndefined()
    })
  })
})
