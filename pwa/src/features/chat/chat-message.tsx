import { EditMessageBody } from '@buble/shared/chat'
import { LIMITS } from '@buble/shared/constants'
import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { useState } from 'react'
import type { ChatActions, LocalChatMessage } from '../../data/chat.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { EditTextForm } from '../../ui/edit-text-form.tsx'
import { LinkedText } from '../../ui/linked-text.tsx'
import { ReactionPicker } from '../../ui/reaction-picker.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { useSecureImage } from '../../ui/use-secure-image.ts'
import { CHAT_TEXTS } from './chat-texts.ts'

interface ChatMessageItemProps {
  message: LocalChatMessage
  actor: MemberActor
  userId: string
  now: number
  actions: ChatActions
  onReply: (message: LocalChatMessage) => void
}

const report = (what: string) => (err: unknown) => console.error(what, err)

/** One message: who and when, what it answers, its text or image, its marks, actions and reactions. */
export function ChatMessageItem({ message, actor, userId, now, actions, onReply }: ChatMessageItemProps) {
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const mine = message.sender.id === userId
  const target = { kind: 'chat_message', authorId: message.sender.id } as const
  const name = message.sender.name

  return (
    <li className={mine ? 'chat-message chat-message-mine' : 'chat-message'} aria-label={`Message from ${name}`}>
      <Avatar name={name} url={message.sender.avatar_url} size={32} alt="" />
      <div className="chat-bubble">
        <div className="chat-meta">
          <span className="chat-sender">{name}</span>
          <RelativeTime iso={message.created_at} now={now} className="chat-time" />
          {message.is_edited && <span>(edited)</span>}
          {message._pending && <span className="pending-mark">Sending…</span>}
        </div>
        {message.replyTo && (
          <blockquote className="chat-quote">
            <span className="chat-quote-sender">{message.replyTo.sender.name}</span>
            <span className="chat-quote-text">{message.replyTo.content || 'Image'}</span>
          </blockquote>
        )}
        {message.type === 'image' && message.image_url && <ChatImage url={message.image_url} sender={name} />}
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
        <div className="chat-foot">
          <ReactionPicker
            reactions={message.reactions ?? {}}
            summary={message.reactionsSummary ?? {}}
            userId={userId}
            onToggle={(type) => void actions.react(message.id, type).catch(report('Failed to perform action'))}
          />
          {!editing && (
            <div className="item-actions chat-actions">
              <button type="button" className="link-button" onClick={() => onReply(message)}>
                Reply <span className="visually-hidden">to {name}</span>
              </button>
              {mayOnContent(actor, 'content.edit', target) && (message.type === 'text' || message.content !== '') && (
                <button type="button" className="link-button" onClick={() => setEditing(true)}>
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
            </div>
          )}
        </div>
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
    </li>
  )
}

/** An image message, fetched with the session (uploads need the Bearer header). */
function ChatImage({ url, sender }: { url: string; sender: string }) {
  const src = useSecureImage(url)
  return (
    <div className="chat-image">
      {src ? <img src={src} alt={`Sent by ${sender}`} /> : <span className="chat-image-placeholder" />}
    </div>
  )
}
