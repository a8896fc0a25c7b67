import { useState } from 'react'
import { useDevice } from '../../data/data-context.tsx'
import type { LocalStory } from '../../data/wall.ts'
import { messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { STORY_TEXTS } from './story-texts.ts'

/**
 * Asks, then deletes a story through the API (DELETE /api/stories/:id: its author, or a holder of
 * delete_others_content) and drops it from the device at once, as the pull's `del` would. Stories are
 * shared online only, and so are deleted.
 */
export function StoryDelete({ story, online, onDone }: { story: LocalStory; online: boolean; onDone: () => void }) {
  const { api } = useServices()
  const device = useDevice()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function remove() {
    if (!online) return setError(STORY_TEXTS.deleteOffline)
    setError(null)
    setBusy(true)
    try {
      await api.delete(`/stories/${story.id}`)
      await device.remember([{ entity: 'story', op: 'del', id: story.id, buble_id: story.buble_id }])
      onDone()
    } catch (err) {
      console.warn(STORY_TEXTS.deleteFailed, err)
      setError(messageOf(err, STORY_TEXTS.deleteFailed))
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      title="Delete story?"
      confirmLabel="Delete story"
      busyLabel="Deleting…"
      danger
      busy={busy}
      error={error}
      onCancel={onDone}
      onConfirm={() => void remove()}
    >
      <p>The story is removed for everyone in this Buble.</p>
    </ConfirmDialog>
  )
}
