import { EditMessageBody } from '@buble/shared/chat'
import { LIMITS } from '@buble/shared/constants'
import { type ChangeEvent, type FormEvent, type KeyboardEvent, type RefObject, useEffect, useId, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import type { ChatActions, LocalChatMessage } from '../../data/chat.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { useReadable } from '../../ui/mention-members.tsx'
import { MentionTextarea } from '../../ui/mention-textarea.tsx'
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
 * not. A picked image is shown first, with the text as its optional caption; Send uploads it
 * (online only) and sends it with the caption.
 */
export function ChatComposer({ buble, actions, replyTo, onCancelReply, onSent, field }: ChatComposerProps) {
  const api = useApi()
  const online = useOnline()
  const id = useId()
  const [text, setText] = useState('')
  const readable = useReadable()
  const [error, setError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [picker, setPicker] = useState(0)
  const [image, setImage] = useState<{ file: File; preview: string } | null>(null)
  // A buble made offline is not on the server yet, so it cannot own an upload.
  const imageBlocked = !online ? IMAGE_TEXTS.imageOffline : buble._pending ? IMAGE_TEXTS.imageNotSynced : null

  // The preview's object URL lives as long as the preview.
  useEffect(() => (image ? () => URL.revokeObjectURL(image.preview) : undefined), [image])

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
      if (imageUrl) setImage(null)
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
    setImage({ file: picked, preview: URL.createObjectURL(picked) })
    field.current?.focus()
  }

  /** The picked image, uploaded, then sent with the text as its caption; kept on screen if the upload fails. */
  async function sendImage(file: File) {
    setError(null)
    setUploading(true)
    try {
      const url = await uploadImage(api, buble.id, file)
      if (!url) return setError(IMAGE_TEXTS.uploadFailed)
      await send(url)
    } finally {
      setUploading(false)
    }
  }

  function removeImage() {
    setImage(null)
    setError(null)
    field.current?.focus()
  }

  /** Sends what is composed: the image with its caption, or the text. */
  function sendComposed() {
    if (uploading) return
    if (image) {
      if (imageBlocked === null) void sendImage(image.file)
    } else if (text.trim() !== '') void send()
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape' && image && !uploading) {
      event.stopPropagation()
      removeImage()
      return
    }
    if (event.key === 'Escape' && replyTo) {
      event.stopPropagation()
      onCancelReply()
      return
    }
    // Shift+Enter (and Enter while an input method composes) is left to the textarea: a new line.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    sendComposed()
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    if (image) sendComposed()
    else void send()
  }

  return (
    <form className="chat-composer" onSubmit={submit} noValidate aria-label="New message">
      {replyTo && (
        <div className="chat-replying">
          <blockquote className="chat-quote" aria-label={`Replying to ${replyTo.sender.name}`}>
            <span className="chat-quote-sender">Replying to {replyTo.sender.name}</span>
            <span className="chat-quote-text">{readable(replyTo.content) || 'Image'}</span>
          </blockquote>
          <button type="button" className="link-button" onClick={onCancelReply}>
            Cancel reply
          </button>
        </div>
      )}
      {image && (
        <figure className="chat-preview">
          <img src={image.preview} alt={`To send: ${image.file.name}`} />
          <figcaption className="chat-preview-note">
            {uploading ? CHAT_TEXTS.imageSending : CHAT_TEXTS.imagePreviewHint}
          </figcaption>
          <button type="button" className="btn btn-light btn-small" onClick={removeImage} disabled={uploading}>
            Remove image
          </button>
        </figure>
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
            aria-label={uploading ? 'Uploading image…' : image ? 'Choose another image' : 'Send an image'}
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
        <MentionTextarea
          ref={field}
          placement="above"
          id={`${id}-text`}
          className="text-input chat-input"
          rows={1}
          maxLength={LIMITS.chatMessage}
          placeholder={image ? CHAT_TEXTS.captionPlaceholder : CHAT_TEXTS.messagePlaceholder}
          aria-describedby={`${id}-keys`}
          value={text}
          onValueChange={setText}
          onKeyDown={onKeyDown}
        />
        <span id={`${id}-keys`} className="visually-hidden">
          Enter sends, Shift+Enter starts a new line.
        </span>
        <button
          type="submit"
          className="btn btn-primary btn-small"
          disabled={uploading || (image ? imageBlocked !== null : text.trim() === '')}
        >
          Send
        </button>
      </div>
    </form>
  )
}
