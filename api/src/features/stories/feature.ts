import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { UploadedFiles } from '../../lib/uploaded-files.ts'
import { storiesRoutes } from './routes.ts'
import { storiesService } from './service.ts'
import { storiesSyncSources } from './sync.ts'

/** Images and videos shared for 24 hours, and the job that removes them after. */
export function storiesFeature(deps: Deps, files: Pick<UploadedFiles, 'isBubleStoryFile' | 'forgetFiles'>) {
  const stories = storiesService(deps, files)
  return defineFeature({
    service: stories,
    routes: new Hono<AppEnv>().route('/', storiesRoutes(stories)),
    syncSources: storiesSyncSources,
    jobs: [stories.expiryJob],
  })
}
