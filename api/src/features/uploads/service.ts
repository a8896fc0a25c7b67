/**
 * Uploaded files: type judged by the bytes, images re-encoded so EXIF/GPS metadata never leaves,
 * buble files (wall and chat images, stories) shown only to that buble's members.
 */

import { isUuid } from '@buble/shared/bubles'
import { LIMITS } from '@buble/shared/constants'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import sharp, { type Sharp } from 'sharp'
import { v4 as uuidv4 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { uploads } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { findMembership, requireMembership, requireWriter } from '../../lib/memberships.ts'
import { UNNAMED_UPLOAD } from '../../lib/named-uploads.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { isStorageKey, SECURE_URL_PREFIX, type StoredFile } from '../../lib/storage.ts'
import { blankMp4Metadata, blankWebmMetadata } from './video-metadata.ts'

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
const VIDEO_EXTENSIONS: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm' }
const BUBLE_KINDS = ['image', 'story'] as const
export const AVATAR_SIZE = 512
/** Buble images (and story pictures) are bounded to this many pixels on their longest side. */
export const IMAGE_MAX_SIDE = 2048

export const UPLOAD_MESSAGES = {
  noFile: 'A file is required',
  badBubleId: 'A valid buble_id is required',
  avatarTooLarge: 'Avatar must be 5 MB or smaller',
  imageTooLarge: 'Image must be 10 MB or smaller',
  storyTooLarge: 'A story must be an image of 10 MB or less, or a video of 50 MB or less',
  notImage: 'Only JPEG, PNG, WebP or GIF images are allowed',
  notStoryMedia: 'Only JPEG, PNG, WebP or GIF images, or MP4 or WebM videos, are allowed',
  unreadable: 'The image could not be read',
  unreadableVideo: 'The video could not be read',
  fileNotFound: 'File not found',
} as const

export type UploadsService = ReturnType<typeof uploadsService>
export type BubleUploadArgs = { buble_id?: string; file?: File }
export type MediaType = 'image' | 'video'

const noFile = () =>
  new AppError('VALIDATION_ERROR', UPLOAD_MESSAGES.noFile, [{ path: 'file', message: UPLOAD_MESSAGES.noFile }])
const urlOf = (key: string) => `${SECURE_URL_PREFIX}${key}`

/** The storage key of one of our `/api/uploads/secure/<key>` urls; undefined for anything else. */
export function keyOfUrl(url: string | null | undefined): string | undefined {
  if (!url?.startsWith(SECURE_URL_PREFIX)) return undefined
  const key = url.slice(SECURE_URL_PREFIX.length)
  return isStorageKey(key) ? key : undefined
}

/** True when `url` is an image or story uploaded into `bubleId`: a post or message cannot show another buble's file. */
export async function isBubleFile(exec: Executor, url: string, bubleId: string): Promise<boolean> {
  const key = keyOfUrl(url)
  if (!key || !isUuid(bubleId)) return false
  const [row] = await exec
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.bubleId, bubleId), inArray(uploads.kind, BUBLE_KINDS)))
    .limit(1)
  return row !== undefined
}

/** Re-encodes to WebP: re-encoding drops every metadata block (EXIF, GPS, XMP, ICC), rotate() first bakes in the orientation. */
async function encodeImage(bytes: Uint8Array, mime: string, resize: (image: Sharp) => Sharp) {
  try {
    const image = sharp(bytes, { animated: mime === 'image/gif' || mime === 'image/webp' }).rotate()
    return await resize(image).webp({ quality: 85 }).toBuffer()
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.unreadable)
  }
}

// WebP for every image: one format to serve, alpha and animation kept, and smaller than JPEG/PNG.
const encodeBubleImage = (bytes: Uint8Array, mime: string) =>
  encodeImage(bytes, mime, (image) =>
    image.resize(IMAGE_MAX_SIDE, IMAGE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true }),
  )

export function uploadsService({ db, storage, log, now }: Deps) {
  /** Checks the file is there and within `maxBytes`, then judges its type by the bytes. */
  async function readUpload(file: File | undefined, maxBytes: number, tooLarge: string) {
    if (!file) throw noFile()
    if (file.size > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge)
    const bytes = new Uint8Array(await file.arrayBuffer())
    // The name and the declared type are the sender's claims; only the bytes count.
    const mime = (await fileTypeFromBuffer(bytes))?.mime
    return { bytes, mime }
  }

  async function requireBubleMember(user: UserRow, bubleId: string | undefined): Promise<string> {
    if (!bubleId || !isUuid(bubleId))
      throw new AppError('VALIDATION_ERROR', UPLOAD_MESSAGES.badBubleId, [
        { path: 'buble_id', message: UPLOAD_MESSAGES.badBubleId },
      ])
    // A muted member's files would only be for content that is refused.
    requireWriter(await requireMembership(db, bubleId, user.id), now())
    return bubleId
  }

  async function store(
    row: { kind: 'avatar' | 'image' | 'story'; ownerId: string; bubleId?: string; contentType: string },
    ext: string,
    bytes: Uint8Array,
  ): Promise<string> {
    const key = `${row.kind}_${uuidv4()}.${ext}`
    // The file first, then its row: a failed put leaves no row naming nothing, and a row that
    // cannot be written takes its file away again, so no object is left that nothing names.
    await storage.put(key, bytes)
    try {
      await db.insert(uploads).values({ key, ...row, size: bytes.length, createdAt: now() })
    } catch (err) {
      await storage.delete(key).catch((e) => log.warn('uploaded file not removed', { key, err: e }))
      throw err
    }
    return urlOf(key)
  }

  /** Deletes the stored files of rows already gone; a missing file is fine, any other failure is only logged. */
  async function removeStored(keys: readonly string[]): Promise<void> {
    await Promise.all(
      keys.map((key) => storage.delete(key).catch((err) => log.warn('uploaded file not removed', { key, err }))),
    )
  }

  return {
    async uploadAvatar(user: UserRow, file: File | undefined): Promise<{ url: string }> {
      const { bytes, mime } = await readUpload(file, LIMITS.avatarBytes, UPLOAD_MESSAGES.avatarTooLarge)
      if (!mime || !IMAGE_TYPES.has(mime)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notImage)
      const encoded = await encodeImage(bytes, mime, (image) =>
        image.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', withoutEnlargement: true }),
      )
      const url = await store({ kind: 'avatar', ownerId: user.id, contentType: 'image/webp' }, 'webp', encoded)
      return { url }
    },

    /** An image for a buble's wall or chat (members only; 404 for anyone else, before the bytes are read). */
    async uploadImage(user: UserRow, args: BubleUploadArgs): Promise<{ url: string }> {
      const bubleId = await requireBubleMember(user, args.buble_id)
      const { bytes, mime } = await readUpload(args.file, LIMITS.imageBytes, UPLOAD_MESSAGES.imageTooLarge)
      if (!mime || !IMAGE_TYPES.has(mime)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notImage)
      const encoded = await encodeBubleImage(bytes, mime)
      const url = await store({ kind: 'image', ownerId: user.id, bubleId, contentType: 'image/webp' }, 'webp', encoded)
      return { url }
    },

    /** A story's picture (treated as uploadImage does) or video (MP4 or WebM, kept as sent but for its metadata). */
    async uploadStory(user: UserRow, args: BubleUploadArgs): Promise<{ url: string; media_type: MediaType }> {
      const bubleId = await requireBubleMember(user, args.buble_id)
      const { bytes, mime } = await readUpload(args.file, LIMITS.videoBytes, UPLOAD_MESSAGES.storyTooLarge)
      const row = { kind: 'story', ownerId: user.id, bubleId } as const
      if (mime && IMAGE_TYPES.has(mime)) {
        if (bytes.length > LIMITS.imageBytes) throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.imageTooLarge)
        const encoded = await encodeBubleImage(bytes, mime)
        return { url: await store({ ...row, contentType: 'image/webp' }, 'webp', encoded), media_type: 'image' }
      }
      const ext = mime && VIDEO_EXTENSIONS[mime]
      if (!mime || !ext) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notStoryMedia)
      // No ffmpeg here, so a video is not re-encoded: what playback does not need (where phones and
      // editors put GPS) is blanked in place, and a file whose structure does not add up is refused.
      const blank = mime === 'video/mp4' ? blankMp4Metadata : blankWebmMetadata
      if (!blank(bytes)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.unreadableVideo)
      return { url: await store({ ...row, contentType: mime }, ext, bytes), media_type: 'video' }
    },

    /** A stored file the caller may read: avatars to any signed-in user, buble files to that buble's members; else 404. */
    async readFile(user: UserRow, key: string): Promise<{ file: StoredFile; contentType: string }> {
      // One answer for a missing file and a forbidden one: an outsider learns nothing.
      const missing = () => notFound(UPLOAD_MESSAGES.fileNotFound)
      if (!isStorageKey(key)) throw missing()
      const [row] = await db.select().from(uploads).where(eq(uploads.key, key)).limit(1)
      if (!row) throw missing()
      if (row.kind !== 'avatar' && (!row.bubleId || !(await findMembership(db, row.bubleId, user.id)))) throw missing()
      const file = await storage.locate(key)
      if (!file) throw missing()
      return { file, contentType: row.contentType }
    },

    /**
     * Forgets the buble files (images, stories) behind these urls that no post, story or chat
     * message names any more: rows and stored files. A file another row still names stays (its
     * uploader may show it in several). Other urls, nulls and avatars are ignored. Never throws: it
     * runs after the owning row is gone, and a file left behind is only logged.
     */
    async forgetFiles(urls: readonly (string | null | undefined)[]): Promise<void> {
      const keys = [...new Set(urls.map(keyOfUrl).filter((key) => key !== undefined))]
      if (keys.length === 0) return
      try {
        const gone = await db.transaction(async (tx) => {
          // Held first (in key order), then the rows naming them are looked for in a statement of its
          // own: an attach holding one of them (`for key share`, files.ts) has committed by then
          // and its row is seen, and an attach coming later waits and then finds the upload gone.
          const held = await tx
            .select({ key: uploads.key })
            .from(uploads)
            .where(and(inArray(uploads.key, keys), inArray(uploads.kind, BUBLE_KINDS)))
            .orderBy(uploads.key)
            .for('update')
          if (held.length === 0) return []
          return rowsOf<{ key: string }>(
            await tx.execute(sql`delete from uploads u
              where u.key in (${sql.join(
                held.map((row) => sql`${row.key}`),
                sql`, `,
              )}) and ${UNNAMED_UPLOAD}
              returning u.key`),
          )
        })
        await removeStored(gone.map((row) => row.key))
      } catch (err) {
        log.error('uploaded files not forgotten', { keys, err })
      }
    },

    /** Forgets every file uploaded into a buble (when the buble is deleted): rows and stored files. */
    async forgetBubleFiles(bubleId: string): Promise<void> {
      if (!isUuid(bubleId)) return
      try {
        const gone = await db.delete(uploads).where(eq(uploads.bubleId, bubleId)).returning({ key: uploads.key })
        await removeStored(gone.map((row) => row.key))
      } catch (err) {
        log.error('buble files not forgotten', { bubleId, err })
      }
    },
  }
}
