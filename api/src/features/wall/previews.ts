/**
 * Link previews, fetched after the post is saved (the post never waits): a small in-process queue,
 * and a job that picks up previews a stopped process still owed. The preview reaches devices
 * through sync, as an update of the post.
 */

import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { posts } from '../../db/schema.ts'
import { afterTransaction } from '../../db/write-scope.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import type { Job } from '../../lib/jobs.ts'
import type { Logger } from '../../lib/log.ts'
import { syncWrite } from '../../lib/sync-writes.ts'
import { postKit } from './kits.ts'
import { owedPreviews } from './queries.ts'

export type LinkPreview = { title: string | null; description: string | null; image: string | null }

const PREVIEW_JOB_LOCK = ADVISORY_LOCKS.linkPreviewJob
/** A preview owed for longer than this is taken to be lost with its process. */
const OWED_AFTER_MS = 60_000
const CONCURRENCY = 2

export interface Previewer {
  previewOwed(postId: string, url: string): void
  /** Resolves once every queued preview is saved (tests; shutdown). */
  idle(): Promise<void>
  job: Job
}

/** Fills a post's preview: only while the post still links to `url` and has none yet. */
async function savePreview(db: Db, at: Date, postId: string, url: string, preview: LinkPreview | null): Promise<void> {
  await syncWrite(db, async (w) => {
    const [post] = await w.tx
      .select()
      .from(posts)
      .where(and(eq(posts.id, postId), eq(posts.linkUrl, url)))
      .limit(1)
    if (!post || post.linkFetchedAt) return
    await postKit.touch(w, post, {
      linkTitle: preview?.title ?? null,
      linkDescription: preview?.description ?? null,
      linkImage: preview?.image ?? null,
      linkFetchedAt: at,
    })
  })
}

export function createPreviewer({
  db,
  now,
  fetchPreview,
  log,
}: {
  db: Db
  now: () => Date
  fetchPreview: (url: string) => Promise<LinkPreview | null>
  log: Logger
}): Previewer {
  const queued = new Map<string, string>()
  const running = new Set<string>()
  let waiters: (() => void)[] = []

  const settle = () => {
    if (queued.size === 0 && running.size === 0) {
      for (const resolve of waiters) resolve()
      waiters = []
    }
  }

  async function work(postId: string, url: string): Promise<void> {
    try {
      // A failed fetch is saved as "no preview" too: the post is not asked again.
      const preview = await fetchPreview(url).catch(() => null)
      await savePreview(db, now(), postId, url, preview)
    } catch (err) {
      log.warn('link preview not saved', { postId, err })
    }
  }

  function pump(): void {
    for (const [postId, url] of queued) {
      if (running.size >= CONCURRENCY) return
      queued.delete(postId)
      running.add(postId)
      void work(postId, url).finally(() => {
        running.delete(postId)
        pump()
        settle()
      })
    }
  }

  const previewer: Previewer = {
    previewOwed(postId, url) {
      if (running.has(postId)) return
      queued.set(postId, url)
      pump()
    },
    idle() {
      if (queued.size === 0 && running.size === 0) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
    job: {
      name: 'link-previews',
      lockKey: PREVIEW_JOB_LOCK,
      async run(tx, at) {
        const owed = await owedPreviews(tx, new Date(at.getTime() - OWED_AFTER_MS))
        // Fetched after the job's transaction: never while it holds its connection.
        for (const { id, url } of owed) afterTransaction(() => previewer.previewOwed(id, url))
      },
    },
  }
  return previewer
}
