/**
 * The wall's, stories' and chat's uploaded files: which file a post, story or chat message may name (one uploaded into
 * the same buble), and a job removing files nothing names any more (uploads never used, files of
 * rows deleted inside a push batch, whose removal waits for the commit).
 */

import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { uploads } from '../../db/schema.ts'
import type { Job } from '../../lib/jobs.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'
import { rowsOf } from './queries.ts'

const ORPHAN_JOB_LOCK = 4_201_303
/** An upload nothing names after this long is an orphan (the client posts right after uploading). */
export const ORPHAN_AFTER_MS = 60 * 60 * 1000
const ORPHANS_PER_RUN = 200

const keyOf = (url: string): string | null =>
  url.startsWith(SECURE_URL_PREFIX) ? url.slice(SECURE_URL_PREFIX.length) : null

async function uploadOf(exec: Executor, url: string, bubleId: string) {
  const key = keyOf(url)
  if (!key) return undefined
  const [row] = await exec
    .select({ kind: uploads.kind, contentType: uploads.contentType })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.bubleId, bubleId)))
    .limit(1)
  return row
}

/** An image uploaded into this buble (by the wall's upload call). */
export async function isBubleImage(exec: Executor, url: string, bubleId: string): Promise<boolean> {
  return (await uploadOf(exec, url, bubleId))?.kind === 'image'
}

/** A story file uploaded into this buble, of the kind the story says. */
export async function isBubleStoryFile(
  exec: Executor,
  url: string,
  bubleId: string,
  mediaType: 'image' | 'video',
): Promise<boolean> {
  const row = await uploadOf(exec, url, bubleId)
  return row?.kind === 'story' && row.contentType.startsWith(`${mediaType}/`)
}

/** Every minute: buble files older than an hour that no post, story or chat message names are removed. */
export function orphanFilesJob(forgetFiles: (urls: readonly string[]) => Promise<void>): Job {
  return {
    name: 'orphan-files',
    lockKey: ORPHAN_JOB_LOCK,
    async run(tx, at) {
      const cutoff = new Date(at.getTime() - ORPHAN_AFTER_MS)
      const rows = rowsOf<{ key: string }>(
        await tx.execute(sql`select u.key from uploads u
          where u.kind in ('image', 'story') and u.created_at < ${cutoff}
            and not exists (select 1 from posts p where p.image_url = ${SECURE_URL_PREFIX} || u.key)
            and not exists (select 1 from stories s where s.media_url = ${SECURE_URL_PREFIX} || u.key)
            and not exists (select 1 from chat_messages c where c.image_url = ${SECURE_URL_PREFIX} || u.key)
          limit ${ORPHANS_PER_RUN}`),
      )
      if (rows.length === 0) return
      // Claimed in this transaction so another run does not pick them up; files go after the commit.
      await tx.delete(uploads).where(
        inArray(
          uploads.key,
          rows.map((row) => row.key),
        ),
      )
      const urls = rows.map((row) => `${SECURE_URL_PREFIX}${row.key}`)
      setImmediate(() => void forgetFiles(urls))
    },
  }
}
