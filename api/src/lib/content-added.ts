/**
 * "Something new arrived in a buble": what a new post, event, poll, member or chat message tells
 * the rest of the app once its write has committed (Web Push listens; CONTRACT §5). A service
 * announces inside its sync write; listeners hear it only after the commit, never for a write that
 * rolled back, and a listener's failure is never the write's.
 */

import type { ContentType } from '@buble/shared/unread'
import type { SyncWriter } from './sync-writes.ts'

export interface ContentAdded {
  bubleId: string
  /** The tab it counts on. */
  contentType: ContentType
  /** Who added it: they are not told of their own content. */
  actorId: string
  /** A short line for a notification: "Ann posted", "New event: Lucia dinner". */
  title: string
  body: string
  /** Only these members are told (an event's reminder); unset, every member but the actor. */
  recipients?: readonly string[]
  /** Members this content mentions: they get the mention's push (`Mentioned`) instead of this one. */
  mentioned?: readonly string[]
}

/** Members mentioned in a buble's post, comment or chat message (decision 94): each gets a push, muted or not. */
export interface Mentioned {
  bubleId: string
  contentType: ContentType
  actorId: string
  actorName: string
  /** Members only, never the author: what `recordMentions` (lib/mentions.ts) wrote. */
  userIds: readonly string[]
  /** The text that mentions them, as stored (its tokens are shown with names by the push). */
  body: string
}

type Listener = (added: ContentAdded) => void

export interface ContentAddedBus {
  /** Call inside a sync write: listeners hear it once the write has committed. */
  announce(w: SyncWriter, added: ContentAdded): void
  /** For content a write has already committed (a group of chat messages): listeners hear it now. */
  committed(added: ContentAdded): void
  listen(listener: Listener): () => void
  /** Call inside a sync write: mention listeners hear it once the write has committed. */
  announceMentions(w: SyncWriter, mentioned: Mentioned): void
  listenMentions(listener: (mentioned: Mentioned) => void): () => void
}

export function createContentAddedBus(): ContentAddedBus {
  const listeners = new Set<Listener>()
  const mentionListeners = new Set<(mentioned: Mentioned) => void>()
  const tellAll = <T>(all: Set<(value: T) => void>, value: T) => {
    for (const listener of all) {
      try {
        listener(value)
      } catch {
        // Listeners log their own failures; the content is written whatever they do.
      }
    }
  }
  const tell = (added: ContentAdded) => tellAll(listeners, added)
  return {
    announce(w, added) {
      w.afterCommit(() => tell(added))
    },
    committed: (added) => tell(added),
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    announceMentions(w, mentioned) {
      if (mentioned.userIds.length > 0) w.afterCommit(() => tellAll(mentionListeners, mentioned))
    },
    listenMentions(listener) {
      mentionListeners.add(listener)
      return () => mentionListeners.delete(listener)
    },
  }
}
