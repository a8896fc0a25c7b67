import { EditMessageBody } from '@buble/shared/chat'
import { LIMITS } from '@buble/shared/constants'
import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { REACTION_TYPES, type ReactionType } from '@buble/shared/wall'
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from 'react'
import type { ChatActions, LocalChatMessage } from '../../data/chat.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { EditTextForm } from '../../ui/edit-text-form.tsx'
import { formatClock, formatMoment } from '../../ui/format.ts'
import { LinkedText } from '../../ui/linked-text.tsx'
import { useReadable } from '../../ui/mention-members.tsx'
import { REACTIONS } from '../../ui/reaction-picker.tsx'
import { ReportToggle, useReportFlow } from '../../ui/report-button.tsx'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { useSecureImage } from '../../ui/use-secure-image.ts'
import { CHAT_TEXTS } from './chat-texts.ts'

/** How long a finger rests on a message before its actions show (a long press). */
export const LONG_PRESS_MS = 500
/** A finger that moves further than this is scrolling, not pressing. */
const PRESS_SLOP_PX = 10

interface ChatMessageItemProps {
  message: LocalChatMessage
  actor: MemberActor
  userId: string
  /** Member names by user id: who reacted. */
  names: ReadonlyMap<string, string>
  /** The first of a run of one sender's messages: it carries the name and avatar. */
  firstOfRun: boolean
  lastOfRun: boolean
  /** The message keyboard focus enters the list on (roving tabindex, chat-panel.tsx). */
  current: boolean
  /** The first message shown: its actions open below it, where there is room. */
  first: boolean
  /** The message opened from search: marked until the panel closes. */
  found?: boolean
  actions: ChatActions
  onReply: (message: LocalChatMessage) => void
}

const report = (what: string) => (err: unknown) => console.error(what, err)

/**
 * One message as a bubble: the user's own on the right, others' on the left with name and avatar on
 * the first of a run. Its reactions show as chips (emoji and count; a tap lists who). Its actions
 * (quick reactions, Reply, Edit, Delete) show on hover, on keyboard focus, or after a long press.
 */
export function ChatMessageItem(props: ChatMessageItemProps) {
  const { message, actor, userId, names, firstOfRun, lastOfRun, current, first, found, actions, onReply } = props
  const [editing, setEditing] = useState(false)
  const readable = useReadable()
  const { copied, failed: copyFailed, copy } = useCopy()
  const [deleting, setDeleting] = useState(false)
  const [pressed, setPressed] = useState(false)
  /** Keyboard focus is on the message or inside it: its actions show. */
  const [focused, setFocused] = useState(false)
  const item = useRef<HTMLLIElement>(null)
  const press = useRef<{ timer: number; x: number; y: number } | null>(null)
  const mine = message.sender.id === userId
  const target = { kind: 'chat_message', authorId: message.sender.id } as const
  const name = message.sender.name
  const reporting = useReportFlow({ bubleId: message.buble_id, targetType: 'chat_message', targetId: message.id })
  const react = (type: ReactionType) => void actions.react(message.id, type).catch(report('Failed to perform action'))

  // A long press shows the actions until a touch elsewhere.
  useEffect(() => {
    if (!pressed) return
    const away = (event: Event) => {
      if (!item.current?.contains(event.target as Node)) setPressed(false)
    }
    document.addEventListener('pointerdown', away)
    return () => document.removeEventListener('pointerdown', away)
  }, [pressed])

  useEffect(() => () => window.clearTimeout(press.current?.timer), [])

  function pointerDown(event: PointerEvent) {
    if (event.pointerType === 'mouse') return
    window.clearTimeout(press.current?.timer)
    press.current = {
      timer: window.setTimeout(() => {
        press.current = null
        setPressed(true)
      }, LONG_PRESS_MS),
      x: event.clientX,
      y: event.clientY,
    }
  }

  function pointerMove(event: PointerEvent) {
    const held = press.current
    if (held && Math.hypot(event.clientX - held.x, event.clientY - held.y) > PRESS_SLOP_PX) cancelPress()
  }

  function cancelPress() {
    window.clearTimeout(press.current?.timer)
    press.current = null
  }

  const classes = [
    'chat-message',
    mine ? 'chat-message-mine' : 'chat-message-theirs',
    firstOfRun && 'is-run-first',
    lastOfRun && 'is-run-last',
    first && 'is-first',
    pressed && 'is-pressed',
    focused && 'is-focused',
    found && 'found-item',
  ]

  return (
    <li
      ref={item}
      className={classes.filter(Boolean).join(' ')}
      aria-label={`Message from ${name}`}
      tabIndex={current ? 0 : -1}
      data-message-id={message.id}
      onPointerDown={pointerDown}
      onPointerMove={pointerMove}
      onPointerUp={cancelPress}
      onPointerCancel={cancelPress}
      // Focus by keyboard shows the actions, focus by a click or tap does not (that is hover's, or a long press's).
      onFocus={(event) => setFocused(event.target.matches(':focus-visible'))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false)
      }}
      // The long press is the message's own gesture, not the browser's menu.
      onContextMenu={(event) => {
        if (pressed || press.current) event.preventDefault()
      }}
    >
      {!mine && (
        <span className="chat-avatar">
          {firstOfRun && <Avatar name={name} url={message.sender.avatar_url} size={28} alt="" />}
        </span>
      )}
      <div className="chat-body">
        {firstOfRun && (
          <span className={mine ? 'chat-sender visually-hidden' : 'chat-sender'} title={name}>
            {name}
          </span>
        )}
        <div className="chat-bubble">
          {message.replyTo && (
            <blockquote className="chat-quote">
              <span className="chat-quote-sender">{message.replyTo.sender.name}</span>
              <span className="chat-quote-text">{readable(message.replyTo.content) || 'Image'}</span>
            </blockquote>
          )}
          {message.type === 'image' && message.image_url && (
            <ChatImage url={message.image_url} bubleId={message.buble_id} sender={name} />
          )}
          {editing ? (
            <EditTextForm
              label="Edit message"
              initial={message.content}
              schema={EditMessageBody.shape.content}
              maxLength={LIMITS.chatMessage}
              failure={CHAT_TEXTS.editMessage}
              onCancel={() => setEditing(false)}
              onSave={async (content) => {
                await actions.edit(message.id, content)
                setEditing(false)
              }}
            />
          ) : (
            message.content && <LinkedText text={message.content} className="chat-text" />
          )}
          <span className="chat-meta">
            {message.is_edited && <span>(edited)</span>}
            {message._pending && <span className="chat-pending">Sending…</span>}
            <time dateTime={message.created_at} title={formatMoment(message.created_at)} className="chat-time">
              {formatClock(message.created_at)}
            </time>
          </span>
        </div>
        <ReactionChips message={message} userId={userId} names={names} onToggle={react} />
        {!editing && (
          <div className="chat-tools">
            <ul className="chat-quick-reactions" aria-label="React">
              {REACTION_TYPES.map((type) => {
                const on = (message.reactions?.[userId] ?? []).includes(type)
                return (
                  <li key={type}>
                    <button
                      type="button"
                      className={on ? 'chat-quick-reaction is-on' : 'chat-quick-reaction'}
                      aria-pressed={on}
                      title={REACTIONS[type].label}
                      onClick={() => react(type)}
                    >
                      <span aria-hidden="true">{REACTIONS[type].emoji}</span>
                      <span className="visually-hidden">{REACTIONS[type].label}</span>
                    </button>
                  </li>
                )
              })}
            </ul>
            <div className="chat-actions">
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setPressed(false)
                  onReply(message)
                }}
              >
                Reply <span className="visually-hidden">to {name}</span>
              </button>
              {message.content !== '' && (
                // A long press shows these actions instead of the browser's menu, so the text is copied from here.
                <button type="button" className="link-button" onClick={() => void copy(readable(message.content))}>
                  {copied ? CHAT_TEXTS.copied : CHAT_TEXTS.copy} <span className="visually-hidden">message</span>
                </button>
              )}
              {mayOnContent(actor, 'content.edit', target) && (message.type === 'text' || message.content !== '') && (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setPressed(false)
                    setEditing(true)
                  }}
                >
                  Edit <span className="visually-hidden">message</span>
                </button>
              )}
              {mayOnContent(actor, 'content.delete', target) && (
                <button
                  type="button"
                  className="link-button link-button-danger"
                  aria-haspopup="dialog"
                  onClick={() => setDeleting(true)}
                >
                  Delete <span className="visually-hidden">message</span>
                </button>
              )}
              {!mine && !message._pending && (
                <ReportToggle
                  reported={reporting.reported}
                  what="message"
                  onOpen={() => {
                    setPressed(false)
                    reporting.open()
                  }}
                />
              )}
            </div>
            {copyFailed && (
              <p className="chat-copy-failed" role="alert">
                {COPY_FAILED}
              </p>
            )}
          </div>
        )}
      </div>
      {deleting && (
        <ConfirmDialog
          title="Delete message?"
          confirmLabel="Delete message"
          busyLabel="Deleting…"
          danger
          busy={false}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            // Gone at once; a refusal brings it back and the sync status says 'Failed to delete message'.
            actions.remove(message.id).catch(report(CHAT_TEXTS.deleteMessage))
            setDeleting(false)
          }}
        >
          <p>The message is removed for everyone in this Buble.</p>
        </ConfirmDialog>
      )}
      {reporting.dialog}
      {reporting.confirmation}
    </li>
  )
}

interface ReactionChipsProps {
  message: LocalChatMessage
  userId: string
  names: ReadonlyMap<string, string>
  onToggle: (type: ReactionType) => void
}

/**
 * The reactions a message has, as small chips (emoji and count). A chip opens a short list of who
 * reacted, with the button that adds or takes back the user's own (docs/decisions/0084).
 */
function ReactionChips({ message, userId, names, onToggle }: ReactionChipsProps) {
  const [open, setOpen] = useState<ReactionType | null>(null)
  const listId = useId()
  const box = useRef<HTMLDivElement>(null)
  const reactions = message.reactions ?? {}
  const summary = message.reactionsSummary ?? {}
  const shown = REACTION_TYPES.filter((type) => (summary[type] ?? 0) > 0)

  useEffect(() => {
    if (!open) return
    const away = (event: Event) => {
      if (!box.current?.contains(event.target as Node)) setOpen(null)
    }
    document.addEventListener('pointerdown', away)
    return () => document.removeEventListener('pointerdown', away)
  }, [open])

  if (shown.length === 0) return null
  const who = (type: ReactionType) =>
    Object.entries(reactions)
      .filter(([, types]) => types.includes(type))
      .map(([id]) => (id === userId ? CHAT_TEXTS.you : (names.get(id) ?? CHAT_TEXTS.formerMember)))
      .sort((a, b) => (a === CHAT_TEXTS.you ? -1 : b === CHAT_TEXTS.you ? 1 : a.localeCompare(b)))
  const openType = open && shown.includes(open) ? open : null
  /** Escape closes the list of who reacted (and not the chat). */
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !openType) return
    event.stopPropagation()
    setOpen(null)
  }

  return (
    <div ref={box} className="chat-reactions">
      <ul className="chat-chips" aria-label="Reactions">
        {shown.map((type) => {
          const { emoji, label } = REACTIONS[type]
          const count = summary[type] ?? 0
          const mine = (reactions[userId] ?? []).includes(type)
          return (
            <li key={type}>
              <button
                type="button"
                className={mine ? 'chat-chip is-mine' : 'chat-chip'}
                aria-expanded={openType === type}
                aria-controls={openType === type ? listId : undefined}
                aria-label={`${label}, ${count}: who reacted`}
                onClick={() => setOpen(openType === type ? null : type)}
                onKeyDown={closeOnEscape}
              >
                <span aria-hidden="true">{emoji}</span>
                <span aria-hidden="true" className="chat-chip-count">
                  {count}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
      {openType && (
        <div id={listId} className="chat-who">
          <span className="chat-who-title" aria-hidden="true">
            {REACTIONS[openType].emoji} {REACTIONS[openType].label}
          </span>
          <ul className="chat-who-names" aria-label={`Reacted with ${REACTIONS[openType].label}`}>
            {who(openType).map((person, index) => (
              // Two former members may read the same.
              // biome-ignore lint/suspicious/noArrayIndexKey: the names are the list's only content
              <li key={index} title={person}>
                {person}
              </li>
            ))}
          </ul>
          <button type="button" className="link-button" onClick={() => onToggle(openType)} onKeyDown={closeOnEscape}>
            {(reactions[userId] ?? []).includes(openType) ? 'Remove your' : 'Add your'} {REACTIONS[openType].label}
          </button>
        </div>
      )}
    </div>
  )
}

/** An image message, fetched with the session (uploads need the Bearer header). */
function ChatImage({ url, bubleId, sender }: { url: string; bubleId: string; sender: string }) {
  const src = useSecureImage(url, bubleId)
  return (
    <div className="chat-image">
      {src ? <img src={src} alt={`Sent by ${sender}`} /> : <span className="chat-image-placeholder" />}
    </div>
  )
}
