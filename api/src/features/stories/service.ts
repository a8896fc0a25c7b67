/**
 * Stories (CONTRACT §3.3): an uploaded image or video that lives 24 hours. A job removes expired
 * stories, with a tombstone each so devices drop them, and then their files.
 */

import { type CreateStoryBody, STORY_LIFETIME_MS, type Story, WALL_MESSAGES } from '@buble/shared/wall'
import { eq, lte, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { stories } from '../../db/schema.ts'
import { afterTransaction } from '../../db/write-scope.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import type { Job } from '../../lib/jobs.ts'
import { requireMembership, requireWriter } from '../../lib/memberships.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { syncWrite, syncWriteIn } from '../../lib/sync-writes.ts'
import { loadStory, STORY_JSON } from './queries.ts'

export interface StoryHooks {
  /** True when `url` is a story file (image or video) `ownerId` uploaded into `bubleId`. */
  isBubleStoryFile(
    exec: Executor,
    url: string,
    bubleId: string,
    ownerId: string,
    mediaType: 'image' | 'video',
  ): Promise<boolean>
  forgetFiles(urls: readonly (string | null | undefined)[]): Promise<void>
}

const kit = contentKit({
  table: stories,
  kind: 'story',
  notFound: () => notFound(WALL_MESSAGES.storyNotFound),
  authorOf: (story) => story.authorId,
  refusals: { 'content.delete': WALL_MESSAGES.notAllowedToDelete },
})
/** The story-expiry job's advisory lock: one process at a time runs it, across every process on the database. */
export const EXPIRY_JOB_LOCK = ADVISORY_LOCKS.storyExpiryJob

export type StoriesService = ReturnType<typeof storiesService>

export function storiesService(deps: Deps, hooks: StoryHooks) {
  const { db, now } = deps

  return {
    /** The buble's stories that have not expired, oldest first (the order they play in). */
    async list(user: UserRow, bubleId: string): Promise<Story[]> {
      await requireMembership(db, bubleId, user.id)
      const rows = rowsOf<{ data: Story }>(
        await db.execute(sql`select ${sql.raw(STORY_JSON)} as data from stories s join users u on u.id = s.author_id
          where s.buble_id = ${bubleId} and s.expires_at > ${now()} order by s.created_at, s.id`),
      )
      return rows.map((row) => row.data)
    },

    async create(user: UserRow, body: CreateStoryBody): Promise<Created<Story>> {
      return syncWrite(db, async (w) => {
        requireWriter(await requireMembership(w.tx, body.buble_id, user.id), now())
        const id = body.id ?? uuidv7()
        // The story made with this id, only while it is in this buble (of which the caller is a member).
        if ((await kit.claim(w.tx, id, user.id, eq(stories.bubleId, body.buble_id))) === 'existing')
          return { value: await loadStory(w.tx, id), created: false }
        if (!(await hooks.isBubleStoryFile(w.tx, body.media_url, body.buble_id, user.id, body.media_type)))
          throw new AppError('VALIDATION_ERROR', WALL_MESSAGES.badMedia, [
            { path: 'media_url', message: WALL_MESSAGES.badMedia },
          ])
        const createdAt = now()
        await w.tx.insert(stories).values({
          id,
          bubleId: body.buble_id,
          authorId: user.id,
          mediaUrl: body.media_url,
          mediaType: body.media_type,
          durationSeconds: body.duration_seconds,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + STORY_LIFETIME_MS),
        })
        w.changed(body.buble_id, 'story')
        return { value: await loadStory(w.tx, id), created: true }
      })
    },

    /** The author, or a member holding delete_others_content. */
    async remove(user: UserRow, storyId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        const story = await kit.forAction(w.tx, storyId, user.id, 'content.delete')
        await kit.remove(w, story)
        w.afterCommit(() => void hooks.forgetFiles([story.mediaUrl]))
      })
    },

    /** Every minute: expired stories go, with a tombstone each, then their files. */
    expiryJob: {
      name: 'story-expiry',
      lockKey: EXPIRY_JOB_LOCK,
      async run(tx, at) {
        const gone = await syncWriteIn(tx, async (w) => {
          const rows = await w.tx
            .delete(stories)
            .where(lte(stories.expiresAt, at))
            .returning({ id: stories.id, bubleId: stories.bubleId, mediaUrl: stories.mediaUrl })
          const byBuble = new Map<string, string[]>()
          for (const row of rows) byBuble.set(row.bubleId, [...(byBuble.get(row.bubleId) ?? []), row.id])
          for (const [bubleId, ids] of byBuble) await w.deleted('story', bubleId, ids)
          return rows.map((row) => row.mediaUrl)
        })
        // The files go once the rows' deletion has committed (those nothing else names); a file left
        // by a crash here is only unreachable, never shown, and the orphan job takes it.
        if (gone.length > 0) afterTransaction(() => void hooks.forgetFiles(gone))
      },
    } satisfies Job,
  }
}
