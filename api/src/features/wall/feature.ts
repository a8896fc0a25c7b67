import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import type { SafeFetch } from '../../lib/safe-fetch.ts'
import type { UploadedFiles } from '../../lib/uploaded-files.ts'
import { fetchLinkPreview } from './link-preview.ts'
import { createPreviewer } from './previews.ts'
import { wallRoutes } from './routes.ts'
import { wallService } from './service.ts'
import { wallBatchers, wallMutations, wallSyncSources, wallUnreadSources } from './sync.ts'

export interface WallFeatureDeps {
  files: Pick<UploadedFiles, 'isBubleImage' | 'forgetFiles'>
  contentAdded: ContentAddedBus
  pokes: PokeClock
  /** Fetches link previews (user-supplied addresses: the guarded fetch, CONTRACT §7). */
  safeFetch: SafeFetch
}

/** Posts, comments, reactions and link previews. */
export function wallFeature(deps: Deps, { files, contentAdded, pokes, safeFetch }: WallFeatureDeps) {
  // Previews are fetched after a post's commit and saved by the previewer itself: the wall only says one is owed.
  const previewer = createPreviewer({
    db: deps.db,
    now: deps.now,
    fetchPreview: (url) => fetchLinkPreview(safeFetch, url),
    log: deps.log,
  })
  const wall = wallService(
    deps,
    {
      isBubleImage: files.isBubleImage,
      forgetFiles: files.forgetFiles,
      previewOwed: previewer.previewOwed,
      contentAdded,
    },
    pokes,
  )
  return defineFeature({
    service: wall,
    previewer,
    routes: new Hono<AppEnv>().route('/wall', wallRoutes(wall)),
    mutations: wallMutations(wall),
    batchers: wallBatchers(wall),
    syncSources: wallSyncSources,
    unreadSources: wallUnreadSources,
    jobs: [previewer.job],
    close: () => wall.close(),
  })
}
