/** The stories' REST calls (CONTRACT §3.3): thin adapters over the service. */

import { CreateStoryBody, WALL_MESSAGES } from '@buble/shared/wall'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { notFound } from '../../lib/errors.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath, idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { StoriesService } from './service.ts'

const idOf = idFromPath
const bubleIdOf = bubleIdFromPath

export function storiesRoutes(stories: StoriesService) {
  return new Hono<AppEnv>()
    .get(
      '/bubles/:id/stories',
      describe({ tag: 'stories', summary: 'Stories that have not expired, oldest first' }),
      async (c) => c.json(await stories.list(c.var.user, bubleIdOf(c.req.param('id')))),
    )
    .post(
      '/stories',
      describe({ tag: 'stories', summary: 'Share an uploaded image or video for 24 hours', status: 201 }),
      validate('json', CreateStoryBody),
      async (c) => {
        const { value, created } = await stories.create(c.var.user, c.req.valid('json'))
        return c.json(value, created ? 201 : 200)
      },
    )
    .delete(
      '/stories/:id',
      describe({ tag: 'stories', summary: 'Delete a story (author or delete_others_content)', status: 204 }),
      async (c) => {
        await stories.remove(
          c.var.user,
          idOf(c.req.param('id'), () => notFound(WALL_MESSAGES.storyNotFound)),
        )
        return c.body(null, 204)
      },
    )
}
