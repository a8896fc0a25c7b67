import { UploadResponse } from '@buble/shared/auth'
import { LIMITS } from '@buble/shared/constants'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from '../../lib/auth.ts'
import { AppError } from '../../lib/errors.ts'
import { describe } from '../../lib/openapi.ts'
import { UPLOAD_MESSAGES, type UploadsService } from './service.ts'

const tag = 'uploads'
// Room for the multipart envelope around a file of the largest allowed size.
const ENVELOPE = 64 * 1024

const limit = (bytes: number, message: string) =>
  bodyLimit({
    maxSize: bytes + ENVELOPE,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', message)
    },
  })

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
        const form = await c.req.parseBody().catch(() => {
          throw new AppError('VALIDATION_ERROR', 'Expected a multipart/form-data body with a file')
        })
        const file = form.file instanceof File ? form.file : undefined
        return c.json(await uploads.uploadAvatar(c.var.user, file))
      },
    )
    .get('/secure/:key', describe({ tag, summary: 'A stored file, for those allowed to see it' }), async (c) => {
      const { bytes, contentType } = await uploads.readFile(c.var.user, c.req.param('key'))
      const media = contentType.startsWith('image/') || contentType.startsWith('video/')
      return c.body(new Uint8Array(bytes), 200, {
        'Content-Type': contentType,
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': media ? 'inline' : 'attachment',
        // Keys are never reused, so a copy may be kept; private: it is behind a token.
        'Cache-Control': 'private, max-age=86400, immutable',
      })
    })
}
