import type { MemberActor } from '@buble/shared/permissions'
import {
  type FocusEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { type LocalBuble, useMembers } from '../../data/bubles.ts'
import { type LocalChatMessage, useChatActions, useChatMessages } from '../../data/chat.ts'
import { useNow } from '../../data/wall.ts'
import { Alert } from '../../ui/alert.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { ChatComposer } from './chat-composer.tsx'
import { ChatMessageItem } from './chat-message.tsx'
import { CHAT_TEXTS } from './chat-texts.ts'
import { chatTimeline } from './chat-timeline.ts'
import './chat.css'
import { UnlessMuted } from '../../ui/muted-note.tsx'
import { distanceFromBottom, isNearBottom, isNearTop, scrollTopKeeping } from './scroll-anchor.ts'

interface ChatPanelProps {
  id: string
  buble: LocalBuble
  actor: MemberActor
  userId: string
  onClose: () => void
  /** A message opened from search: shown, scrolled to and marked. */
  focusId?: string | null
}

/**
 * The floating chat: newest at the bottom, followed while the user is there; older pages load on
 * scrolling up (or the button at the top) without moving what the user reads. A non-modal dialog:
 * the page stays usable beside it on a desktop; on a phone it covers the screen, and shrinks with the
 * on-screen keyboard so the composer stays above it. Escape closes. Arrow keys move between messages
 * (one of them is in the tab order); a focused message shows its actions.
 */
export function ChatPanel({ id, buble, actor, userId, onClose, focusId = null }: ChatPanelProps) {
  const titleId = useId()
  const chat = useChatMessages(buble.id, focusId)
  const actions = useChatActions()
  const now = useNow()
  const [replyTo, setReplyTo] = useState<LocalChatMessage | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const list = useRef<HTMLDivElement>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  // Opened on a message from search, the view stays where that message is.
  const atBottom = useRef(focusId === null)
  const shownFocus = useRef(false)
  /** Set while an older page loads: where the view was, and the message then first. */
  const anchor = useRef<{ fromBottom: number; firstId: string | undefined } | null>(null)
  const lastSeen = useRef<string | undefined>(undefined)
  const messages = chat.rows
  const hasOlder = chat.hasMore
  const members = useMembers(buble.id)
  const names = useMemo(() => new Map((members ?? []).map((m) => [m.user_id, m.user.name])), [members])
  const timeline = useMemo(() => (messages ? chatTimeline(messages, now) : []), [messages, now])
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const currentId = messages?.some((m) => m.id === focusedId) ? focusedId : (messages?.at(-1)?.id ?? null)
  const panel = useRef<HTMLElement>(null)
  useKeyboardAwareHeight(panel)

  useEffect(() => {
    if (focusId === null) field.current?.focus()
  }, [focusId])

  const focusShown = focusId !== null && messages?.some((m) => m.id === focusId) === true
  useLayoutEffect(() => {
    if (!focusShown || shownFocus.current) return
    shownFocus.current = true
    const item = list.current?.querySelector<HTMLElement>(`[data-message-id="${focusId}"]`)
    item?.scrollIntoView({ block: 'center' })
    setFocusedId(focusId)
    item?.focus({ preventScroll: true })
  }, [focusShown, focusId])

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

  // When the list itself changes height (the on-screen keyboard opens, the composer grows), a view
  // at the bottom stays at the bottom.
  useEffect(() => {
    const box = list.current
    if (!box || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (atBottom.current) box.scrollTop = box.scrollHeight
    })
    observer.observe(box)
    return () => observer.disconnect()
  }, [])

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

  /** Up, Down, Home and End move between messages once one has focus. */
  function onListKeyDown(event: KeyboardEvent<HTMLOListElement>) {
    const from = event.target as HTMLElement
    if (!from.matches('.chat-message')) return
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(':scope > .chat-message')]
    const at = items.indexOf(from)
    const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: items.length - 1 }[event.key]
    if (to === undefined) return
    event.preventDefault()
    items[Math.max(0, Math.min(items.length - 1, to))]?.focus()
  }

  function onListFocus(event: FocusEvent<HTMLOListElement>) {
    const id = (event.target as HTMLElement).closest<HTMLElement>('.chat-message')?.dataset.messageId
    if (id) setFocusedId(id)
  }

  function reply(message: LocalChatMessage) {
    setReplyTo(message)
    field.current?.focus()
  }

  return (
    <section ref={panel} id={id} className="chat-panel" role="dialog" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <header className="chat-head">
        {/* Reads "Chat · Saturday Climbers", says "Chat in Saturday Climbers". */}
        <h2 id={titleId} className="chat-title" title={buble.name}>
          Chat <span aria-hidden="true">·</span>
          <span className="visually-hidden"> in</span> <span className="chat-title-name">{buble.name}</span>
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
          <ol className="chat-messages" aria-label="Messages" onKeyDown={onListKeyDown} onFocus={onListFocus}>
            {timeline.map((entry) =>
              entry.kind === 'day' ? (
                <li key={entry.key} className="chat-day">
                  <h3 className="chat-day-label">{entry.label}</h3>
                </li>
              ) : (
                <ChatMessageItem
                  key={entry.key}
                  message={entry.message}
                  userId={userId}
                  actor={actor}
                  names={names}
                  firstOfRun={entry.firstOfRun}
                  lastOfRun={entry.lastOfRun}
                  current={entry.message.id === currentId}
                  first={entry.message.id === messages[0]?.id}
                  found={entry.message.id === focusId}
                  actions={actions}
                  onReply={reply}
                />
              ),
            )}
          </ol>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <UnlessMuted>
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
      </UnlessMuted>
    </section>
  )
}

/**
 * On a phone the panel covers the screen; where the browser does not shrink the page for the
 * on-screen keyboard (iOS ignores `interactive-widget=resizes-content`), it follows the visual
 * viewport instead, so the composer stays just above the keyboard.
 */
function useKeyboardAwareHeight(panel: { current: HTMLElement | null }) {
  useEffect(() => {
    const viewport = window.visualViewport
    const box = panel.current
    if (!viewport || !box) return
    const fit = () => {
      box.style.setProperty('--chat-viewport-height', `${viewport.height}px`)
      box.style.setProperty('--chat-viewport-top', `${viewport.offsetTop}px`)
    }
    fit()
    viewport.addEventListener('resize', fit)
    viewport.addEventListener('scroll', fit)
    return () => {
      viewport.removeEventListener('resize', fit)
      viewport.removeEventListener('scroll', fit)
    }
  }, [panel])
}
