import { EditMessageBody } from '@buble/shared/chat'
import { LIMITS } from '@buble/shared/constants'
import { type ChangeEvent, type FormEvent, type KeyboardEvent, type RefObject, useId, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import type { ChatActions, LocalChatMessage } from '../../data/chat.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { IMAGE_TEXTS, IMAGE_TYPES, imageProblem, uploadImage } from '../../ui/upload-image.ts'
import { CHAT_TEXTS } from './chat-texts.ts'

interface ChatComposerProps {
  buble: LocalBuble
  actions: ChatActions
  replyTo: LocalChatMessage | null
  onCancelReply: () => void
  /** Called once a message is queued (the panel scrolls to it). */
  onSent: () => void
  field: RefObject<HTMLTextAreaElement | null>
}

/**
 * Writes a message: Enter sends, Shift+Enter starts a new line. Text is queued at once, online or
 * not; an image is uploaded first (online only) and sent with the text as its caption.
 */
export function ChatComposer({ buble, actions, replyTo, onCancelReply, onSent, field }: ChatComposerProps) {
  const api = useApi()
  const online = useOnline()
  const id = useId()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [picker, setPicker] = useState(0)
  // A buble made offline is not on the server yet, so it cannot own an upload.
  const imageBlocked = !online ? IMAGE_TEXTS.imageOffline : buble._pending ? IMAGE_TEXTS.imageNotSynced : null

  async function send(imageUrl?: string) {
    const content = text.trim()
    if (!imageUrl) {
      const checked = EditMessageBody.shape.content.safeParse(text)
      if (!checked.success) return setError(checked.error.issues[0]?.message ?? CHAT_TEXTS.sendMessage)
    }
    setError(null)
    try {
      await actions.send({
        buble_id: buble.id,
        content,
        ...(imageUrl ? { image_url: imageUrl } : {}),
        ...(replyTo ? { reply_to_id: replyTo.id } : {}),
      })
      // What was typed while it was being sent stays: only the text that went is cleared.
      setText((current) => (current === text ? '' : current))
      onCancelReply()
      onSent()
    } catch (err) {
      console.error(CHAT_TEXTS.sendMessage, err)
      setError(CHAT_TEXTS.sendMessage)
    }
  }

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0] ?? null
    // A fresh input, so the same file can be picked again.
    setPicker((n) => n + 1)
    setError(null)
    if (!picked) return
    const problem = imageProblem(picked)
    if (problem) return setError(problem)
    setUploading(true)
    try {
      const url = await uploadImage(api, buble.id, picked)
      if (!url) return setError(IMAGE_TEXTS.uploadFailed)
      await send(url)
    } finally {
      setUploading(false)
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape' && replyTo) {
      event.stopPropagation()
      onCancelReply()
      return
    }
    // Shift+Enter (and Enter while an input method composes) is left to the textarea: a new line.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    if (text.trim() !== '') void send()
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    void send()
  }

  return (
    <form className="chat-composer" onSubmit={submit} noValidate aria-label="New message">
      {replyTo && (
        <div className="chat-replying">
          <blockquote className="chat-quote" aria-label={`Replying to ${replyTo.sender.name}`}>
            <span className="chat-quote-sender">Replying to {replyTo.sender.name}</span>
            <span className="chat-quote-text">{replyTo.content || 'Image'}</span>
          </blockquote>
          <button type="button" className="link-button" onClick={onCancelReply}>
            Cancel reply
          </button>
        </div>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      {imageBlocked && (
        <p className="field-hint" id={`${id}-image-hint`}>
          {imageBlocked}
        </p>
      )}
      <div className="chat-compose-row">
        <label
          className={`btn btn-secondary btn-small file-button chat-image-button${imageBlocked || uploading ? ' is-disabled' : ''}`}
        >
          <span aria-hidden="true">{uploading ? '…' : '📷'}</span>
          <input
            aria-label={uploading ? 'Uploading image…' : 'Send an image'}
            key={picker}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            className="visually-hidden"
            disabled={imageBlocked !== null || uploading}
            aria-describedby={imageBlocked ? `${id}-image-hint` : undefined}
            onChange={(event) => void pick(event)}
          />
        </label>
        <label htmlFor={`${id}-text`} className="visually-hidden">
          Write a message
        </label>
        <textarea
          ref={field}
          id={`${id}-text`}
          className="text-input chat-input"
          rows={1}
          maxLength={LIMITS.chatMessage}
          placeholder="Write a message…"
          aria-describedby={`${id}-keys`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <span id={`${id}-keys`} className="visually-hidden">
          Enter sends, Shift+Enter starts a new line.
        </span>
        <button type="submit" className="btn btn-primary btn-small" disabled={uploading || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  )
}
