import { useEffect, useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useSearchParams } from 'react-router-dom'
import { type LocalBuble, useMembers } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { useKeepRead, useMentioned, useUnread } from '../../data/unread.ts'
import { lazyPart } from '../../ui/lazy-part.ts'
import { memberActorFor } from '../../ui/member-actor.ts'
import { TabCount } from '../../ui/tab-count.tsx'

const ChatPanel = lazyPart(() => import('./chat-panel.tsx'), 'ChatPanel', { fallback: null })

/**
 * The header's Chat button (with the chat's unread counter) and the floating panel it toggles.
 * While the panel is open the chat reads as read, on every device of the user.
 */
export function ChatLauncher({ buble }: { buble: LocalBuble }) {
  const device = useDevice()
  const members = useMembers(buble.id)
  // A chat notification opens the buble with `?chat=open` (api/src/features/push/sender.ts).
  const [params] = useSearchParams()
  const [open, setOpen] = useState(() => params.get('chat') === 'open')
  // Search opens a message with `?chat=open&message=<id>`, on this page too.
  const focusId = params.get('chat') === 'open' ? params.get('message') : null
  useEffect(() => {
    if (focusId) setOpen(true)
  }, [focusId])
  const panelId = useId()
  const button = useRef<HTMLButtonElement>(null)
  const unread = useUnread(buble.id).chat
  useKeepRead(buble.id, open ? 'chat' : null)
  const count = open ? 0 : unread
  const mentioned = useMentioned(buble.id).chat && !open

  function close() {
    setOpen(false)
    button.current?.focus()
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-secondary chat-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Chat
        <TabCount count={count} mentioned={mentioned} />
      </button>
      {open &&
        createPortal(
          <ChatPanel
            key={focusId ?? ''}
            focusId={focusId}
            id={panelId}
            buble={buble}
            actor={memberActorFor(buble, members, device.userId)}
            userId={device.userId}
            onClose={close}
          />,
          document.body,
        )}
    </>
  )
}
