/**
 * A buble's gallery (issue 23 §5). Online, pages come from the server (`GET /bubles/:id/media`),
 * which also knows what this device never pulled; offline, the gallery is what the device has: the
 * images of the posts and chat messages on it and the stories still showing (decision 99).
 */

import type { ChatMessage } from '@buble/shared/chat'
import type { MediaItem, MediaPage } from '@buble/shared/media'
import type { Post, Story } from '@buble/shared/wall'
import { useLiveQuery } from 'dexie-react-hooks'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useApi } from '../session/session-context.tsx'
import { useDevice } from './data-context.tsx'
import type { DeviceDb } from './device-db.ts'
import { useOnline } from './sync-status.ts'

export type MediaGallery =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | {
      status: 'ready'
      items: MediaItem[]
      /** True when the items are the device's own (offline): older ones may be on the server. */
      fromDevice: boolean
      hasMore: boolean
      loadingMore: boolean
      loadMore(): void
    }

const newestFirst = (a: MediaItem, b: MediaItem) =>
  b.created_at.localeCompare(a.created_at) || b.source_id.localeCompare(a.source_id)

/** The gallery from the device's rows, newest first. */
export async function deviceMedia(db: DeviceDb, bubleId: string, now: number): Promise<MediaItem[]> {
  const [postRows, messageRows, storyRows] = await Promise.all([
    db.posts.where('buble_id').equals(bubleId).toArray(),
    db.chat_messages.where('buble_id').equals(bubleId).toArray(),
    db.stories.where('buble_id').equals(bubleId).toArray(),
  ])
  const posts = postRows as unknown as Post[]
  const messages = messageRows as unknown as ChatMessage[]
  const stories = storyRows as unknown as Story[]
  const items: MediaItem[] = [
    ...posts.flatMap((post) =>
      post.image_url
        ? [
            {
              id: `post:${post.id}`,
              source: 'post' as const,
              source_id: post.id,
              media_type: 'image' as const,
              url: post.image_url,
              author: post.author,
              created_at: post.created_at,
            },
          ]
        : [],
    ),
    ...messages.flatMap((message) =>
      message.image_url
        ? [
            {
              id: `chat:${message.id}`,
              source: 'chat' as const,
              source_id: message.id,
              media_type: 'image' as const,
              url: message.image_url,
              author: message.sender,
              created_at: message.created_at,
            },
          ]
        : [],
    ),
    ...stories
      .filter((story) => Date.parse(story.expires_at) > now)
      .map((story) => ({
        id: `story:${story.id}`,
        source: 'story' as const,
        source_id: story.id,
        media_type: story.media_type,
        url: story.media_url,
        author: story.author,
        created_at: story.created_at,
      })),
  ]
  return items.sort(newestFirst)
}

/** The gallery of a buble, a page at a time; `failure` shows when the server refuses. */
export function useMediaGallery(bubleId: string, failure: string): MediaGallery {
  const api = useApi()
  const { db } = useDevice()
  const online = useOnline()
  const [pages, setPages] = useState<{ items: MediaItem[]; next: string | null } | null>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'loadingMore' | 'offline' | 'failed'>('loading')
  const [message, setMessage] = useState('')
  const busy = useRef(false)
  const local = useLiveQuery(() => deviceMedia(db, bubleId, Date.now()), [db, bubleId])

  const fetchPage = useCallback(
    async (before: string | null) => {
      const query = before ? `?before=${encodeURIComponent(before)}` : ''
      return api.get<MediaPage>(`/bubles/${bubleId}/media${query}`)
    },
    [api, bubleId],
  )

  useEffect(() => {
    if (!online) return setState('offline')
    let live = true
    setState('loading')
    fetchPage(null).then(
      (page) => {
        if (!live) return
        setPages({ items: page.items, next: page.next })
        setState('ready')
      },
      (err: unknown) => {
        if (!live) return
        // No answer at all is the same as offline: the device's own media show.
        if (err instanceof TypeError) return setState('offline')
        setMessage(err instanceof Error && err.message ? err.message : failure)
        setState('failed')
      },
    )
    return () => {
      live = false
    }
  }, [online, fetchPage, failure])

  const loadMore = useCallback(() => {
    if (busy.current || !pages?.next) return
    busy.current = true
    setState('loadingMore')
    fetchPage(pages.next)
      .then(
        (page) => {
          setPages((shown) => ({ items: [...(shown?.items ?? []), ...page.items], next: page.next }))
          setState('ready')
        },
        () => setState('ready'),
      )
      .finally(() => {
        busy.current = false
      })
  }, [fetchPage, pages])

  if (state === 'failed') return { status: 'failed', message }
  if (state === 'offline') {
    if (!local) return { status: 'loading' }
    return { status: 'ready', items: local, fromDevice: true, hasMore: false, loadingMore: false, loadMore: () => {} }
  }
  if (state === 'loading' || !pages) return { status: 'loading' }
  return {
    status: 'ready',
    items: pages.items,
    fromDevice: false,
    hasMore: pages.next !== null,
    loadingMore: state === 'loadingMore',
    loadMore,
  }
}
