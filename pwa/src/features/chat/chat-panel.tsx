import type { MemberActor } from '@buble/shared/permissions'
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { type LocalChatMessage, useChatActions, useChatMessages } from '../../data/chat.ts'
import { useNow } from '../../data/wall.ts'
import { Alert } from '../../ui/alert.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { ChatComposer } from './chat-composer.tsx'
import { ChatMessageItem } from './chat-message.tsx'
import { CHAT_TEXTS } from './chat-texts.ts'
import { distanceFromBottom, isNearBottom, isNearTop, scrollTopKeeping } from './scroll-anchor.ts'

interface ChatPanelProps {
  id: string
  buble: LocalBuble
  actor: MemberActor
  userId: string
  onClose: () => void
}

/**
 * The floating chat: newest at the bottom, followed while the user is there; older pages load on
 * scrolling up (or the button at the top) without moving what the user reads. A non-modal dialog:
 * the page stays usable beside it on a desktop; on a phone it covers the screen. Escape closes.
 */
export function ChatPanel({ id, buble, actor, userId, onClose }: ChatPanelProps) {
  const titleId = useId()
  const chat = useChatMessages(buble.id)
  const actions = useChatActions()
  const now = useNow()
  const [replyTo, setReplyTo] = useState<LocalChatMessage | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const list = useRef<HTMLDivElement>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  const atBottom = useRef(true)
  /** Set while an older page loads: where the view was, and the message then first. */
  const anchor = useRef<{ fromBottom: number; firstId: string | undefined } | null>(null)
  const lastSeen = useRef<string | undefined>(undefined)
  const messages = chat.rows
  const hasOlder = chat.hasMore

  useEffect(() => {
    field.current?.focus()
  }, [])

  // After each change: keep the view where it was over a page loaded above, or follow the bottom.
  useLayoutEffect(() => {
    const box = list.current
    if (!box || !messages) return
    const held = anchor.current
    if (held && messages[0]?.id !== held.firstId) {
      box.scrollTop = scrollTopKeeping(held.fromBottom, box.scrollHeight)
      anchor.current = null
    } else if (!held && atBottom.current) {
      box.scrollTop = box.scrollHeight
    }
  }, [messages])

  // Say what arrived from others (not what was there when the panel opened, nor older pages).
  useEffect(() => {
    const newest = messages?.at(-1)
    if (!newest || newest.id === lastSeen.current) return
    const first = lastSeen.current === undefined
    lastSeen.current = newest.id
    if (!first && newest.sender.id !== userId)
      setAnnouncement(`New message from ${newest.sender.name}: ${newest.content || 'Image'}`)
  }, [messages, userId])

  async function showOlder() {
    const box = list.current
    if (!box || anchor.current || !hasOlder) return
    anchor.current = { fromBottom: distanceFromBottom(box), firstId: messages?.[0]?.id }
    if (!(await chat.loadMore())) anchor.current = null
  }

  function onScroll() {
    const box = list.current
    if (!box) return
    atBottom.current = isNearBottom(box)
    if (isNearTop(box)) void showOlder()
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return
    event.stopPropagation()
    onClose()
  }

  function reply(message: LocalChatMessage) {
    setReplyTo(message)
    field.current?.focus()
  }

  return (
    <section id={id} className="chat-panel" role="dialog" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <header className="chat-head">
        <h2 id={titleId} className="chat-title">
          Chat <span className="visually-hidden">in {buble.name}</span>
        </h2>
        <button type="button" className="btn btn-light btn-small chat-close" onClick={onClose}>
          <span aria-hidden="true">✕</span>
          <span className="visually-hidden">Close chat</span>
        </button>
      </header>
      <div ref={list} className="chat-list" onScroll={onScroll}>
        {chat.status === 'loading' && <Spinner label="Loading messages…" />}
        {chat.status === 'failed' && <Alert kind="error">{CHAT_TEXTS.loadMessages}</Alert>}
        {messages && hasOlder && (
          <button type="button" className="link-button chat-older" onClick={() => void showOlder()}>
            Load older messages
          </button>
        )}
        {messages?.length === 0 && (
          <EmptyState title={CHAT_TEXTS.empty}>
            <p>{CHAT_TEXTS.emptyHint}</p>
          </EmptyState>
        )}
        {messages && messages.length > 0 && (
          <ol className="chat-messages" aria-label="Messages">
            {messages.map((message) => (
              <ChatMessageItem
                key={message.id}
                message={message}
                userId={userId}
                actor={actor}
                now={now}
                actions={actions}
                onReply={reply}
              />
            ))}
          </ol>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <ChatComposer
        buble={buble}
        actions={actions}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        onSent={() => {
          atBottom.current = true
        }}
        field={field}
      />
    </section>
  )
}
