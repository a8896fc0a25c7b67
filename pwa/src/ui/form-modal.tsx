import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { Alert } from './alert.tsx'
import { Modal } from './modal.tsx'

/** What a modal that edits one thing takes: its texts, the values it starts from, and what saving does. */
export interface EditorModalProps<Values, Draft = Values> {
  heading: string
  submitLabel: string
  busyLabel: string
  initial?: Draft
  /** Shown when `onSubmit` throws (spec part 2 §8: 'Failed to create event', …). */
  failure: string
  onSubmit: (values: Values) => Promise<unknown>
  onClose: () => void
}

interface FormModalProps {
  title: string
  submitLabel: string
  busyLabel: string
  /** Shown when `onSubmit` throws. */
  failure: string
  /** Checks and saves; answers false when the form shows problems of its own and stays open. */
  onSubmit: () => Promise<boolean>
  onClose: () => void
  children: ReactNode
}

/** A form in a modal: Cancel and submit in the footer, busy while saving, the failure text inside; closes on success. */
export function FormModal({ title, submitLabel, busyLabel, failure, onSubmit, onClose, children }: FormModalProps) {
  const formId = useId()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setError(null)
    setBusy(true)
    try {
      if (await onSubmit()) return onClose()
    } catch (err) {
      console.error(failure, err)
      setError(failure)
    }
    setBusy(false)
  }

  return (
    <Modal
      title={title}
      size="medium"
      onClose={busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        {children}
      </form>
    </Modal>
  )
}
