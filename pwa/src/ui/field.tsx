import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react'

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  hint?: ReactNode
  error?: string | null
  onValue?: (value: string) => void
  /** A textarea of this many rows instead of an input (a description, say). */
  rows?: number
}

/** A labelled input (or textarea) with an optional hint and error, wired up for screen readers. */
export function Field({ label, hint, error, onValue, onChange, id, rows, ...input }: FieldProps) {
  const autoId = useId()
  const inputId = id ?? autoId
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const wiring = {
    id: inputId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  }
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {rows ? (
        <textarea
          {...wiring}
          rows={rows}
          onChange={(event) => onValue?.(event.target.value)}
          {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)}
        />
      ) : (
        <input
          {...wiring}
          onChange={(event) => {
            onChange?.(event)
            onValue?.(event.target.value)
          }}
          {...input}
        />
      )}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  )
}
