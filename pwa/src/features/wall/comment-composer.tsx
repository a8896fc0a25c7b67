import { LIMITS } from '@buble/shared/constants'
import { CommentContent } from '@buble/shared/wall'
import { type FormEvent, useId, useState } from 'react'
import type { WallActions } from '../../data/wall.ts'
import { MentionTextarea } from '../../ui/mention-textarea.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

/** A comment under a post: queued at once, online or not. Ctrl/Cmd+Enter sends too. */
export function CommentComposer({ postId, actions }: { postId: string; actions: WallActions }) {
  const id = useId()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)

  async function send(event?: FormEvent) {
    event?.preventDefault()
    const checked = CommentContent.safeParse(text)
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? WALL_TEXTS.createComment)
    setError(null)
    try {
      await actions.createComment(postId, checked.data)
      // What was typed while it was being sent stays: only the text that went is cleared.
      setText((current) => (current === text ? '' : current))
    } catch (err) {
      console.error(WALL_TEXTS.createComment, err)
      setError(WALL_TEXTS.createComment)
    }
  }

  return (
    <form className="comment-composer" onSubmit={(event) => void send(event)} noValidate>
      <label htmlFor={id} className="visually-hidden">
        Write a comment
      </label>
      <MentionTextarea
        id={id}
        className="text-input"
        rows={1}
        maxLength={LIMITS.comment}
        placeholder="Write a comment…"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onValueChange={setText}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send()
        }}
      />
      <button type="submit" className="btn btn-primary btn-small" disabled={text.trim() === ''}>
        Comment
      </button>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
