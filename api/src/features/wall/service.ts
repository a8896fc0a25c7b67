/**
 * The wall (CONTRACT §3.3): posts here, comments and reactions in comments.ts, one service. Every
 * write is one sync write, called alike by the REST routes and by the push handler's mutations.
 */

import { hasMentions } from '@buble/shared/mentions'
import { can } from '@buble/shared/permissions'
import { firstUrl, MAX_PINNED_POSTS, type Post, WALL_MESSAGES } from '@buble/shared/wall'
import { and, eq, gt, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { comments, posts } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { AppError, conflict, forbidden } from '../../lib/errors.ts'
import { memberActorOf, notMutedSql, requireMembership, requireWriter } from '../../lib/memberships.ts'
import { mention } from '../../lib/mentions.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { batchAnswers, firstOfEach, ONE_BY_ONE } from '../../lib/sync-sources.ts'
import { type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
import { commentsAndReactions } from './comments.ts'
import { postKit } from './kits.ts'
import { type PostPage, wallPages } from './page-cache.ts'
import { loadPost, nextPosition, pinnedCount, pinnedPosts, writtenPostsJson } from './queries.ts'

export type PostRow = typeof posts.$inferSelect

/** A new post's fields, as `post.create` and `POST /api/wall/:bubleId/posts` take them. */
export interface NewPost {
  id?: string | undefined
  content: string
  image_url?: string | null | undefined
  link_url?: string | null | undefined
}

/**
 * A post that can be written with others in one statement: nothing to check but the membership and
 * its id (a post mentioning members goes step by step, to write its mentions).
 */
export const isPlainPost = (post: NewPost): boolean => !post.image_url && !hasMentions(post.content)

/** What the wall asks of the rest of the app: whether a file may be shown in a buble, forgetting files, previews. */
export interface WallHooks {
  /** True when `url` is an image `ownerId` uploaded into `bubleId`: only its uploader may attach a file. */
  isBubleImage(exec: Executor, url: string, bubleId: string, ownerId: string): Promise<boolean>
  /** Removes stored files once the rows naming them are gone (after commit). */
  forgetFiles(urls: readonly (string | null | undefined)[]): Promise<void>
  /** A post linking to `url` was saved: fetch its preview in the background. */
  previewOwed(postId: string, url: string): void
  /** Tells Web Push of a new post once it has committed. */
  contentAdded: ContentAddedBus
}

/** Removes a post, its comments (each with a tombstone) and closes the gap in the positions above it. */
async function removePost(w: SyncWriter, found: PostRow): Promise<void> {
  // Positions move only with the buble held: read the post's again once it is.
  await w.enter(found.bubleId)
  const post = await postKit.find(w.tx, found.id)
  const gone = await w.tx.delete(comments).where(eq(comments.postId, post.id)).returning({ id: comments.id })
  await w.deleted(
    'comment',
    post.bubleId,
    gone.map(({ id }) => id),
  )
  await postKit.remove(w, post)
  await w.tx
    .update(posts)
    .set({ position: sql`${posts.position} - 1` })
    .where(and(eq(posts.bubleId, post.bubleId), gt(posts.position, post.position)))
}

export type WallService = ReturnType<typeof wallService>

export function wallService(deps: Deps, hooks: WallHooks, pokes: PokeClock) {
  const { db, now } = deps
  const pages = wallPages(db, pokes)

  /** What a post announces once committed: its notification, and the preview its link owes. */
  function announcePost(
    w: SyncWriter,
    user: UserRow,
    post: { id: string; bubleId: string; content: string; linkUrl: string | null },
    mentioned: readonly string[] = [],
  ) {
    w.changed(post.bubleId, 'post')
    hooks.contentAdded.announce(w, {
      bubleId: post.bubleId,
      contentType: 'wall',
      actorId: user.id,
      title: `${user.name} posted`,
      body: post.content,
      mentioned,
    })
    // The preview is fetched once the post is committed: the answer never waits for it.
    const { id, linkUrl } = post
    if (linkUrl) w.afterCommit(() => hooks.previewOwed(id, linkUrl))
  }

  /**
   * Plain posts (`isPlainPost`) of one author, in one statement inside the open write `w`: the
   * membership check, the ids claimed, the positions after the buble's last, the rows and the
   * answers. A post it does not write (not a member, an id already claimed, the same id twice) is
   * answered `ONE_BY_ONE`, and `createPost` gives it the exact answer (404, 409, the post made with
   * that id). The bubles are entered first (in id order), so positions are read with the buble held.
   */
  async function createPostsAtOnce(
    w: SyncWriter,
    user: UserRow,
    items: readonly (NewPost & { id: string; buble_id: string })[],
  ): Promise<(Post | typeof ONE_BY_ONE)[]> {
    const firsts = firstOfEach(items)
    for (const bubleId of [...new Set(firsts.map((item) => item.buble_id))].sort()) await w.enter(bubleId)
    const input = JSON.stringify(
      firsts.map((item, n) => ({
        n,
        id: item.id,
        buble_id: item.buble_id,
        content: item.content,
        link_url: item.link_url ?? firstUrl(item.content),
      })),
    )
    const rows = (
      (await w.tx.execute(sql`with input as materialized (
          select x.* from jsonb_to_recordset(${input}::jsonb) as x(n int, id uuid, buble_id uuid, content text, link_url text)
        ),
        allowed as (
          select i.* from input i
          where exists (select 1 from memberships m where m.buble_id = i.buble_id and m.user_id = ${user.id}
            and ${notMutedSql('m', now())})
        ),
        claimed as (
          insert into entity_ids (id, kind, user_id)
          select id, 'post', ${user.id} from allowed
          on conflict do nothing
          returning id
        ),
        placed as (
          select a.*, buble_next_version() as version,
            (select coalesce(max(p.position), 0) from posts p where p.buble_id = a.buble_id)
              + row_number() over (partition by a.buble_id order by a.n) as position
          from (select a.* from allowed a join claimed c on c.id = a.id order by a.n) a
        ),
        written as (
          insert into posts (id, buble_id, author_id, content, link_url, position, created_at, added_version, version)
          select id, buble_id, ${user.id}, content, link_url, position, ${now().toISOString()}::timestamptz, version, version
          from placed
          returning *
        )
        ${writtenPostsJson('written')}`)) as unknown as { rows: { id: string; data: Post }[] }
    ).rows
    const written = new Map(rows.map((row) => [row.id, row.data]))
    for (const item of firsts) {
      const post = written.get(item.id)
      if (post)
        announcePost(w, user, { id: post.id, bubleId: post.buble_id, content: post.content, linkUrl: post.link_url })
    }
    return batchAnswers(items, written)
  }

  return {
    page: (user: UserRow, bubleId: string, pageNumber: number, limit: number): Promise<PostPage> =>
      pages.page(user.id, bubleId, pageNumber, limit),
    close: () => pages.close(),

    async latest(user: UserRow, bubleId: string, limit: number): Promise<string> {
      return (await pages.page(user.id, bubleId, 1, limit)).postsJson
    },

    async get(user: UserRow, postId: string): Promise<Post> {
      await postKit.forMember(db, postId, user.id)
      return loadPost(db, postId)
    },

    /**
     * A new post; the same client id again answers the post made with it. A plain post goes the
     * one-statement way (`createPostsAtOnce`); the rest, and whatever that leaves, step by step.
     */
    async createPost(user: UserRow, bubleId: string, body: NewPost): Promise<Created<Post>> {
      return syncWrite(db, async (w) => {
        const id = body.id ?? uuidv7()
        if (isPlainPost(body)) {
          const [post] = await createPostsAtOnce(w, user, [{ ...body, id, buble_id: bubleId }])
          if (post && post !== ONE_BY_ONE) return { value: post, created: true }
        }
        requireWriter(await requireMembership(w.tx, bubleId, user.id), now())
        // The post made with this id, only while it is in this buble (of which the caller is a member).
        if ((await postKit.claim(w.tx, id, user.id, eq(posts.bubleId, bubleId))) === 'existing')
          return { value: await loadPost(w.tx, id), created: false }
        if (body.image_url && !(await hooks.isBubleImage(w.tx, body.image_url, bubleId, user.id)))
          throw new AppError('VALIDATION_ERROR', 'image_url must be an image uploaded to this buble', [
            { path: 'image_url', message: 'image_url must be an image uploaded to this buble' },
          ])
        const version = await w.takeVersion()
        const linkUrl = body.link_url ?? firstUrl(body.content)
        await w.tx.insert(posts).values({
          id,
          bubleId,
          authorId: user.id,
          content: body.content,
          imageUrl: body.image_url ?? null,
          linkUrl,
          position: nextPosition(bubleId),
          createdAt: now(),
          addedVersion: version,
          version,
        })
        const at = now()
        const mentioned = await mention(w, hooks.contentAdded, user, {
          bubleId,
          contentType: 'wall',
          contentId: id,
          text: body.content,
          at,
        })
        announcePost(w, user, { id, bubleId, content: body.content, linkUrl }, mentioned)
        return { value: await loadPost(w.tx, id), created: true }
      })
    },

    /** Plain posts several at once, inside the push's open write (the batcher of `post.create`). */
    createPostsAtOnce: (user: UserRow, items: readonly (NewPost & { id: string; buble_id: string })[]) =>
      syncWrite(db, (w) => createPostsAtOnce(w, user, items)),

    /** The author edits a post: marked edited; a changed link owes a new preview. */
    async updatePost(user: UserRow, postId: string, content: string): Promise<Post> {
      return syncWrite(db, async (w) => {
        const post = await postKit.forEdit(w.tx, postId, user.id, now())
        const found = firstUrl(content)
        // A link given with the post stays; one found in the text follows the text.
        const keepsLink = post.linkUrl !== null && (post.linkUrl === found || !firstUrl(post.content))
        const link = keepsLink
          ? {}
          : { linkUrl: found, linkTitle: null, linkDescription: null, linkImage: null, linkFetchedAt: null }
        await postKit.touch(w, post, { content, isEdited: true, ...link })
        // Only members this edit mentions for the first time in the post hear of it.
        await mention(w, hooks.contentAdded, user, {
          bubleId: post.bubleId,
          contentType: 'wall',
          contentId: postId,
          text: content,
          at: now(),
        })
        if (!keepsLink && found) w.afterCommit(() => hooks.previewOwed(postId, found))
        return loadPost(w.tx, postId)
      })
    },

    /** The author, or a member holding delete_others_content. */
    async deletePost(user: UserRow, postId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        const post = await postKit.forAction(w.tx, postId, user.id, 'content.delete')
        await removePost(w, post)
        w.afterCommit(() => void hooks.forgetFiles([post.imageUrl]))
      })
    },

    /** The buble's pinned posts, the newest pin first; 404 for a non-member. */
    async pinned(user: UserRow, bubleId: string): Promise<Post[]> {
      await requireMembership(db, bubleId, user.id)
      return pinnedPosts(db, bubleId)
    },

    /**
     * Pins a post to the top of the wall (manage_buble or pin_posts). A fourth pin is refused, not
     * swapped for the oldest: which one to let go is the pinner's call. Pinning a pinned post answers it.
     */
    async pinPost(user: UserRow, postId: string): Promise<Post> {
      return syncWrite(db, async (w) => {
        // Inside the write the membership check holds the buble: the count below stays true until commit.
        const { row, me } = await postKit.forMember(w.tx, postId, user.id)
        if (!can(memberActorOf(me), 'post.pin')) throw forbidden(WALL_MESSAGES.notAllowedToPin)
        if (row.pinnedAt) return loadPost(w.tx, postId)
        if ((await pinnedCount(w.tx, row.bubleId)) >= MAX_PINNED_POSTS) throw conflict(WALL_MESSAGES.tooManyPins)
        await postKit.touch(w, row, { pinnedAt: now() })
        return loadPost(w.tx, postId)
      })
    },

    /** Takes a post off the top of the wall (manage_buble or pin_posts); an unpinned post answers as it is. */
    async unpinPost(user: UserRow, postId: string): Promise<Post> {
      return syncWrite(db, async (w) => {
        const { row, me } = await postKit.forMember(w.tx, postId, user.id)
        if (!can(memberActorOf(me), 'post.pin')) throw forbidden(WALL_MESSAGES.notAllowedToPin)
        if (row.pinnedAt) await postKit.touch(w, row, { pinnedAt: null })
        return loadPost(w.tx, postId)
      })
    },

    /** A platform admin's delete (CONTRACT §3.4): as `deletePost`, without the membership check; answers the row. */
    async adminDeletePost(postId: string): Promise<PostRow> {
      return syncWrite(db, async (w) => {
        const post = await postKit.find(w.tx, postId, true)
        await removePost(w, post)
        w.afterCommit(() => void hooks.forgetFiles([post.imageUrl]))
        return post
      })
    },

    ...commentsAndReactions(deps, hooks.contentAdded),
  }
}
