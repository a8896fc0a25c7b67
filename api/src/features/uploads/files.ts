/**
 * The wall's, stories' and chat's uploaded files: which file a post, story or chat message may name
 * (one its author uploaded into the same buble), and a job removing files nothing names any more
 * (uploads never used, files of rows deleted inside a push batch, whose removal waits for the commit).
 */

import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { uploads } from '../../db/schema.ts'
import { afterTransaction } from '../../db/write-scope.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import type { Job } from '../../lib/jobs.ts'
import { UNNAMED_UPLOAD } from '../../lib/named-uploads.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'

/** The orphan-file job's advisory lock: one process at a time runs it, across every process on the database. */
export const ORPHAN_JOB_LOCK = ADVISORY_LOCKS.orphanFileJob
/** An upload nothing names after this long is an orphan (the client posts right after uploading). */
export const ORPHAN_AFTER_MS = 60 * 60 * 1000
const ORPHANS_PER_RUN = 200

const keyOf = (url: string): string | null =>
  url.startsWith(SECURE_URL_PREFIX) ? url.slice(SECURE_URL_PREFIX.length) : null

/**
 * The upload behind `url` if `ownerId` uploaded it into `bubleId`. Only its uploader may attach a
 * file: a file named by another member's row would go when that row is deleted. The row is held
 * (`for key share`) until the attaching write commits, so a forget running meanwhile (`forgetFiles`,
 * which the orphan job goes through too, locks it `for update` before looking for rows naming it)
 * waits and then sees the new row, or has already removed it and this finds nothing.
 */
async function uploadOf(exec: Executor, url: string, bubleId: string, ownerId: string) {
  const key = keyOf(url)
  if (!key) return undefined
  const [row] = await exec
    .select({ kind: uploads.kind, contentType: uploads.contentType })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.bubleId, bubleId), eq(uploads.ownerId, ownerId)))
    .limit(1)
    .for('key share')
  return row
}

/** An image `ownerId` uploaded into this buble (by the wall's upload call). */
export async function isBubleImage(exec: Executor, url: string, bubleId: string, ownerId: string): Promise<boolean> {
  return (await uploadOf(exec, url, bubleId, ownerId))?.kind === 'image'
}

/** A story file `ownerId` uploaded into this buble, of the kind the story says. */
export async function isBubleStoryFile(
  exec: Executor,
  url: string,
  bubleId: string,
  ownerId: string,
  mediaType: 'image' | 'video',
): Promise<boolean> {
  const row = await uploadOf(exec, url, bubleId, ownerId)
  return row?.kind === 'story' && row.contentType.startsWith(`${mediaType}/`)
}

/**
 * Every minute: buble files older than an hour that no post, story or chat message names are
 * handed to `forgetFiles`, which removes their rows and stored files after checking again, under
 * its own lock, that nothing names them (an uploader may have attached one meanwhile).
 */
export function orphanFilesJob(forgetFiles: (urls: readonly string[]) => Promise<void>): Job {
  return {
    name: 'orphan-files',
    lockKey: ORPHAN_JOB_LOCK,
    async run(tx, at) {
      const cutoff = new Date(at.getTime() - ORPHAN_AFTER_MS)
      const rows = rowsOf<{ key: string }>(
        await tx.execute(sql`select u.key from uploads u
          where u.kind in ('image', 'story') and u.created_at < ${cutoff} and ${UNNAMED_UPLOAD}
          limit ${ORPHANS_PER_RUN}`),
      )
      if (rows.length === 0) return
      // Another process's run may pick the same files before these go: forgetting one twice is nothing.
      const urls = rows.map((row) => `${SECURE_URL_PREFIX}${row.key}`)
      afterTransaction(() => void forgetFiles(urls))
    },
  }
}
