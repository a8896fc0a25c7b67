/**
 * Which rows name an uploaded file: a post's image, a story's media, a chat message's image. A file
 * is removed only when none does (the uploads service's forget and the orphan job both ask this).
 */

import { sql } from 'drizzle-orm'
import { SECURE_URL_PREFIX } from './storage.ts'

/** No post, story or chat message names the upload `u` (an SQL condition on `uploads u`). */
export const UNNAMED_UPLOAD = sql`not exists (select 1 from posts p where p.image_url = ${SECURE_URL_PREFIX} || u.key)
  and not exists (select 1 from stories s where s.media_url = ${SECURE_URL_PREFIX} || u.key)
  and not exists (select 1 from chat_messages c where c.image_url = ${SECURE_URL_PREFIX} || u.key)`
