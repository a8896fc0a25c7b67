/** Reads of stories in their answer shape (CONTRACT §3.3), built by PostgreSQL. */

import type { Story } from '@buble/shared/wall'
import type { Executor } from '../../db/client.ts'
import { loader } from '../../lib/json-loader.ts'
import { isoJson, jsonObject, memberRefJson } from '../../lib/sql-json.ts'

export const STORY_JSON = jsonObject<Story>({
  id: 's.id',
  buble_id: 's.buble_id',
  media_url: 's.media_url',
  media_type: 's.media_type',
  author: memberRefJson('u'),
  duration_seconds: 's.duration_seconds',
  created_at: isoJson('s.created_at'),
  expires_at: isoJson('s.expires_at'),
})

export const loadStories = loader<Story>('stories', 's', STORY_JSON)

export async function loadStory(db: Executor, id: string): Promise<Story> {
  const story = (await loadStories(db, [id])).get(id)
  if (!story) throw new Error(`story ${id} vanished`)
  return story
}
