import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { mediaRoutes } from './routes.ts'
import { mediaService } from './service.ts'

/** The Media tab's gallery: images and videos of posts, chat and current stories. */
export function mediaFeature(deps: Deps) {
  const media = mediaService(deps)
  return defineFeature({ service: media, routes: new Hono<AppEnv>().route('/bubles', mediaRoutes(media)) })
}
