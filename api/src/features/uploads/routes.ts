import { Readable } from 'node:stream'
import { UploadResponse } from '@buble/shared/auth'
import { LIMITS } from '@buble/shared/constants'
import { StoryUploadResponse } from '@buble/shared/wall'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from '../../lib/auth.ts'
import { AppError } from '../../lib/errors.ts'
import { describe } from '../../lib/openapi.ts'
import { type BubleUploadArgs, UPLOAD_MESSAGES, type UploadsService } from './service.ts'

const tag = 'uploads'
// Room for the multipart envelope around a file of the largest allowed size.
const ENVELOPE = 64 * 1024

// Checked while the body arrives, so an oversized one is refused without being buffered.
const limit = (bytes: number, message: string) =>
  bodyLimit({
    maxSize: bytes + ENVELOPE,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', message)
    },
  })

async function readForm(c: Context<AppEnv>) {
  return c.req.parseBody().catch(() => {
    throw new AppError('VALIDATION_ERROR', 'Expected a multipart/form-data body with a file')
  })
}

async function readBubleUpload(c: Context<AppEnv>): Promise<BubleUploadArgs> {
  const form = await readForm(c)
  return {
    buble_id: typeof form.buble_id === 'string' ? form.buble_id : undefined,
    file: form.file instanceof File ? form.file : undefined,
  }
}

/**
 * The one `bytes=` range of a Range header, within a file of `size` bytes. Null: send the whole file
 * (no header, several ranges, or one RFC 9110 says to ignore); 'unsatisfiable': answer 416.
 */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/)
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '') {
    if (last === '') return null
    const suffix = Number(last)
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  return end < start ? null : { start, end }
}

export function uploadsRoutes(uploads: UploadsService) {
  return new Hono<AppEnv>()
    .post(
      '/avatar',
      describe({
        tag,
        summary: 'Upload an avatar (JPEG, PNG, WebP or GIF, ≤ 5 MB); metadata is stripped',
        response: UploadResponse,
        upload: true,
      }),
      limit(LIMITS.avatarBytes, UPLOAD_MESSAGES.avatarTooLarge),
      async (c) => {
        const form = await readForm(c)
        const file = form.file instanceof File ? form.file : undefined
        return c.json(await uploads.uploadAvatar(c.var.user, file))
      },
    )
    .post(
      '/image',
      describe({
        tag,
        summary: 'Upload an image into a buble (JPEG, PNG, WebP or GIF, ≤ 10 MB, with `buble_id`); served as WebP',
        status: 201,
        response: UploadResponse,
        upload: true,
      }),
      limit(LIMITS.imageBytes, UPLOAD_MESSAGES.imageTooLarge),
      async (c) => c.json(await uploads.uploadImage(c.var.user, await readBubleUpload(c)), 201),
    )
    .post(
      '/story',
      describe({
        tag,
        summary: 'Upload a story into a buble: an image (≤ 10 MB) or an MP4/WebM video (≤ 50 MB), with `buble_id`',
        status: 201,
        response: StoryUploadResponse,
        upload: true,
      }),
      limit(LIMITS.videoBytes, UPLOAD_MESSAGES.storyTooLarge),
      async (c) => c.json(await uploads.uploadStory(c.var.user, await readBubleUpload(c)), 201),
    )
    .get('/secure/:key', describe({ tag, summary: 'A stored file, for those allowed to see it' }), async (c) => {
      const { file, contentType } = await uploads.readFile(c.var.user, c.req.param('key'))
      const media = contentType.startsWith('image/') || contentType.startsWith('video/')
      const headers = {
        'Content-Type': contentType,
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': media ? 'inline' : 'attachment',
        // Keys are never reused, so a copy may be kept; private: it is behind a token.
        'Cache-Control': 'private, max-age=86400, immutable',
        // A <video> seeks with ranges; storage reads only the asked bytes (from disk, or from the bucket).
        'Accept-Ranges': 'bytes',
      }
      const range = rangeOf(c.req.header('range'), file.size)
      if (range === 'unsatisfiable')
        return c.body(null, 416, { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${file.size}` })
      const stream = (part?: { start: number; end: number }) =>
        Readable.toWeb(file.read(part)) as ReadableStream<Uint8Array>
      if (!range) return c.body(stream(), 200, { ...headers, 'Content-Length': String(file.size) })
      return c.body(stream(range), 206, {
        ...headers,
        'Content-Length': String(range.end - range.start + 1),
        'Content-Range': `bytes ${range.start}-${range.end}/${file.size}`,
      })
    })
}
