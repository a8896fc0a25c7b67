import { Readable } from 'node:stream'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import type { ExportService } from './service.ts'

/** Where the PWA asks for the archive (mounted under /api). */
export const EXPORT_PATH = '/users/me/export'

export function exportRoutes(exports: ExportService) {
  return new Hono<AppEnv>().get(
    EXPORT_PATH,
    describe({
      tag: 'users',
      summary:
        'Download your data: a ZIP (application/zip) of your profile, memberships, content, votes and uploaded files; 5 per hour',
    }),
    async (c) => {
      // Only the caller's own data: the path names no user, the token does.
      const { fileName, body } = await exports.download(c.var.user)
      return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'no-store',
        // Sent as it is built: a buffering proxy would hold it all back.
        'X-Accel-Buffering': 'no',
      })
    },
  )
}
