import { type FormEvent, useId, useState } from 'react'
import type { z } from 'zod'
import { MentionTextarea } from './mention-textarea.tsx'

interface EditTextFormProps {
  label: string
  initial: string
  /** The shared schema of the text (trimmed, not empty, at most so long). */
  schema: z.ZodType<string>
  maxLength: number
  onSave: (content: string) => Promise<unknown>
  onCancel: () => void
  failure: string
}

/**
 * Edits a post's, a comment's or a chat message's text in place: Save checks it as the server will,
 * Escape cancels.
 */
export function EditTextForm({ label, initial, schema, maxLength, onSave, onCancel, failure }: EditTextFormProps) {
  const id = useId()
  const [text, setText] = useState(initial)
  const [error, setError] = useState<string | null>(null)

  async function save(event: FormEvent) {
    event.preventDefault()
    const checked = schema.safeParse(text)
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? failure)
    if (checked.data === initial.trim()) return onCancel()
    try {
      await onSave(checked.data)
    } catch (err) {
      console.error(failure, err)
      setError(failure)
    }
  }

  return (
    <form className="edit-text" onSubmit={(event) => void save(event)} noValidate>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <MentionTextarea
        id={id}
        className="text-input"
        value={text}
        maxLength={maxLength}
        rows={3}
        // The field replaced the Edit button the user just pressed.
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onValueChange={setText}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation()
            onCancel()
          }
        }}
      />
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary btn-small">
          Save
        </button>
      </div>
    </form>
  )
}
