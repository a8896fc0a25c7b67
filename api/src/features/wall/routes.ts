/** The wall's REST calls (CONTRACT §3.3): thin adapters over the services. */

import {
  CreateCommentBody,
  CreatePostBody,
  LatestQuery,
  ReactionBody,
  UpdateCommentBody,
  UpdatePostBody,
  WALL_MESSAGES,
  WallPageQuery,
} from '@buble/shared/wall'
import { type Context, Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { notFound, validationError } from '../../lib/errors.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath, idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { WallService } from './service.ts'

const tag = 'wall'

const idOf = idFromPath
const bubleIdOf = bubleIdFromPath
const postIdOf = (raw: string) => idOf(raw, () => notFound(WALL_MESSAGES.postNotFound))
const commentIdOf = (raw: string) => idOf(raw, () => notFound(WALL_MESSAGES.commentNotFound))

/** JSON text PostgreSQL already built, sent as it is. */
const rawJson = (c: Context, text: string) => c.body(text, 200, { 'content-type': 'application/json' })

/** A reaction type from `?reactionType=` or the JSON body (CONTRACT §6: DELETE takes either). */
async function reactionTypeOf(c: Context) {
  const fromQuery = c.req.query('reactionType')
  const body: unknown = fromQuery === undefined ? await c.req.json().catch(() => ({})) : { reactionType: fromQuery }
  const parsed = ReactionBody.safeParse(body)
  if (parsed.success) return parsed.data.reactionType
  const message = parsed.error.issues[0]?.message ?? 'reactionType is required'
  throw validationError([{ path: ['reactionType'], message }])
}

export function wallRoutes(wall: WallService) {
  return new Hono<AppEnv>()
    .get('/posts/:id/comments', describe({ tag, summary: 'Comments of a post, oldest first' }), async (c) =>
      c.json(await wall.listComments(c.var.user, postIdOf(c.req.param('id')))),
    )
    .post(
      '/posts/:id/comments',
      describe({ tag, summary: 'Comment on a post (a second call with the same id answers it)', status: 201 }),
      validate('json', CreateCommentBody),
      async (c) => {
        const { value, created } = await wall.createComment(
          c.var.user,
          postIdOf(c.req.param('id')),
          c.req.valid('json'),
        )
        return c.json(value, created ? 201 : 200)
      },
    )
    .post(
      '/posts/:id/reactions',
      describe({ tag, summary: 'Add a reaction (idempotent)' }),
      validate('json', ReactionBody),
      async (c) =>
        c.json(await wall.addReaction(c.var.user, postIdOf(c.req.param('id')), c.req.valid('json').reactionType)),
    )
    .delete(
      '/posts/:id/reactions',
      describe({ tag, summary: 'Remove a reaction (JSON body or ?reactionType=; idempotent)' }),
      async (c) => c.json(await wall.removeReaction(c.var.user, postIdOf(c.req.param('id')), await reactionTypeOf(c))),
    )
    .post('/posts/:id/pin', describe({ tag, summary: 'Pin a post to the top of the wall (at most 3)' }), async (c) =>
      c.json(await wall.pinPost(c.var.user, postIdOf(c.req.param('id')))),
    )
    .delete('/posts/:id/pin', describe({ tag, summary: 'Unpin a post' }), async (c) =>
      c.json(await wall.unpinPost(c.var.user, postIdOf(c.req.param('id')))),
    )
    .put(
      '/posts/:id',
      describe({ tag, summary: 'Edit your post (marks it edited)' }),
      validate('json', UpdatePostBody),
      async (c) => c.json(await wall.updatePost(c.var.user, postIdOf(c.req.param('id')), c.req.valid('json').content)),
    )
    .delete(
      '/posts/:id',
      describe({ tag, summary: 'Delete a post (author or delete_others_content)', status: 204 }),
      async (c) => {
        await wall.deletePost(c.var.user, postIdOf(c.req.param('id')))
        return c.body(null, 204)
      },
    )
    .put(
      '/comments/:id',
      describe({ tag, summary: 'Edit your comment' }),
      validate('json', UpdateCommentBody),
      async (c) =>
        c.json(await wall.updateComment(c.var.user, commentIdOf(c.req.param('id')), c.req.valid('json').content)),
    )
    .delete(
      '/comments/:id',
      describe({ tag, summary: 'Delete a comment (author or delete_others_content)', status: 204 }),
      async (c) => {
        await wall.deleteComment(c.var.user, commentIdOf(c.req.param('id')))
        return c.body(null, 204)
      },
    )
    .get('/:bubleId/posts/pinned', describe({ tag, summary: 'The pinned posts, the newest pin first' }), async (c) =>
      c.json({ posts: await wall.pinned(c.var.user, bubleIdOf(c.req.param('bubleId'))) }),
    )
    .get(
      '/:bubleId/posts/latest',
      describe({ tag, summary: 'The newest posts, for the ticker' }),
      validate('query', LatestQuery),
      async (c) => {
        const json = await wall.latest(c.var.user, bubleIdOf(c.req.param('bubleId')), c.req.valid('query').limit)
        return rawJson(c, `{"posts":${json}}`)
      },
    )
    .get(
      '/:bubleId/posts',
      describe({ tag, summary: 'A page of posts, newest first' }),
      validate('query', WallPageQuery),
      async (c) => {
        const { page, limit } = c.req.valid('query')
        const result = await wall.page(c.var.user, bubleIdOf(c.req.param('bubleId')), page, limit)
        return c.body(result.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'application/json' })
      },
    )
    .post(
      '/:bubleId/posts',
      describe({ tag, summary: 'Post on the wall (a second call with the same id answers it)', status: 201 }),
      validate('json', CreatePostBody),
      async (c) => {
        const { value, created } = await wall.createPost(
          c.var.user,
          bubleIdOf(c.req.param('bubleId')),
          c.req.valid('json'),
        )
        return c.json(value, created ? 201 : 200)
      },
    )
}
