/** Uploaded files: type judged by the bytes, images re-encoded so EXIF/GPS metadata never leaves. */

import { LIMITS } from '@buble/shared/constants'
import { eq } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import { v4 as uuidv4 } from 'uuid'
import { uploads } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { isStorageKey, SECURE_URL_PREFIX } from '../../lib/storage.ts'

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
export const AVATAR_SIZE = 512

export const UPLOAD_MESSAGES = {
  noFile: 'A file is required',
  avatarTooLarge: 'Avatar must be 5 MB or smaller',
  notImage: 'Only JPEG, PNG, WebP or GIF images are allowed',
  unreadable: 'The image could not be read',
} as const

export type UploadsService = ReturnType<typeof uploadsService>

export function uploadsService({ db, storage, now }: Deps) {
  return {
    async uploadAvatar(user: UserRow, file: File | undefined): Promise<{ url: string }> {
      if (!file)
        throw new AppError('VALIDATION_ERROR', UPLOAD_MESSAGES.noFile, [
          { path: 'file', message: UPLOAD_MESSAGES.noFile },
        ])
      if (file.size > LIMITS.avatarBytes) throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.avatarTooLarge)
      const bytes = new Uint8Array(await file.arrayBuffer())
      // The name and the declared type are the sender's claims; only the bytes count.
      const judged = await fileTypeFromBuffer(bytes)
      if (!judged || !IMAGE_TYPES.has(judged.mime))
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notImage)
      let encoded: Buffer
      try {
        // Re-encoding drops every metadata block (EXIF, GPS, XMP); rotate() first bakes in the orientation.
        encoded = await sharp(bytes, { animated: judged.mime === 'image/gif' || judged.mime === 'image/webp' })
          .rotate()
          .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', withoutEnlargement: true })
          .webp({ quality: 85 })
          .toBuffer()
      } catch {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.unreadable)
      }
      const key = `avatar_${uuidv4()}.webp`
      await storage.put(key, encoded)
      await db.insert(uploads).values({
        key,
        ownerId: user.id,
        kind: 'avatar',
        contentType: 'image/webp',
        size: encoded.length,
        createdAt: now(),
      })
      return { url: `${SECURE_URL_PREFIX}${key}` }
    },

    /** A stored file the caller may read: avatars to any signed-in user; others 404 (buble files arrive with bubles). */
    async readFile(_user: UserRow, key: string): Promise<{ bytes: Buffer; contentType: string }> {
      if (!isStorageKey(key)) throw notFound('File not found')
      const [row] = await db.select().from(uploads).where(eq(uploads.key, key)).limit(1)
      if (row?.kind !== 'avatar') throw notFound('File not found')
      const bytes = await storage.get(key)
      if (!bytes) throw notFound('File not found')
      return { bytes, contentType: row.contentType }
    },
  }
}
