/** Stories in sync: their synced table (they are written over REST only, so no mutation). */

import type { SyncSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import { loadStories } from './queries.ts'

export const storiesSyncSources: SyncSource[] = [
  { entity: 'story', scan: scanTable('story', 'stories', 'buble_id'), load: (db, ids) => loadStories(db, ids) },
]
