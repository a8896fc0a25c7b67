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

/** Thrown by a form's `onSubmit` to show its own message instead of `failure` (a problem the user can fix, the server's answer). */
export class FormProblem extends Error {}

interface FormModalProps {
  title: string
  size?: 'small' | 'medium'
  submitLabel: string
  busyLabel: string
  /** Shown when `onSubmit` throws anything but a `FormProblem`. */
  failure: string
  /** Checks and saves; answers false when the form shows problems of its own and stays open. */
  onSubmit: () => Promise<boolean>
  onClose: () => void
  children: ReactNode
}

/**
 * The FormModal of an editor: `check` answers the values to save, or null when the form shows
 * problems of its own; the values go to `onSubmit`, and the modal closes when that succeeds.
 */
export function EditorFormModal<Values>({
  editor: { heading, onSubmit, ...texts },
  check,
  children,
}: {
  editor: Omit<EditorModalProps<Values, unknown>, 'initial'>
  check: () => Values | null
  children: ReactNode
}) {
  async function submit(): Promise<boolean> {
    const values = check()
    if (values === null) return false
    await onSubmit(values)
    return true
  }
  return (
    <FormModal title={heading} onSubmit={submit} {...texts}>
      {children}
    </FormModal>
  )
}

/** A form in a modal: Cancel and submit in the footer, busy while saving, the failure text inside; closes on success. */
export function FormModal({
  title,
  size = 'medium',
  submitLabel,
  busyLabel,
  failure,
  onSubmit,
  onClose,
  children,
}: FormModalProps) {
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
      if (err instanceof FormProblem) setError(err.message)
      else {
        console.error(failure, err)
        setError(failure)
      }
    }
    setBusy(false)
  }

  return (
    <Modal
      title={title}
      size={size}
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
