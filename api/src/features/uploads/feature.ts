import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { isBubleImage, isBubleStoryFile, orphanFilesJob } from './files.ts'
import { uploadsRoutes } from './routes.ts'
import { uploadsService } from './service.ts'

/** Uploaded files, and the checks of the features that name them (wall, stories, chat), handed out by app.ts. */
export function uploadsFeature(deps: Deps) {
  const uploads = uploadsService(deps)
  const forgetFiles = (urls: readonly (string | null | undefined)[]) => uploads.forgetFiles(urls)
  return defineFeature({
    service: uploads,
    files: { isBubleImage, isBubleStoryFile, forgetFiles },
    routes: new Hono<AppEnv>().route('/uploads', uploadsRoutes(uploads)),
    jobs: [orphanFilesJob(forgetFiles)],
  })
}
