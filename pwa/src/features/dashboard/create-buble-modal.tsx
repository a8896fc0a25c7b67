import { BubleName } from '@buble/shared/bubles'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { v7 as uuidv7 } from 'uuid'
import { bublePath } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'

const FORM_ID = 'create-buble-form'

/** Creates the buble on this device at once (offline too) and opens it; the server gets it when it can. */
export function CreateBubleModal({ onClose }: { onClose: () => void }) {
  const device = useDevice()
  const navigate = useNavigate()
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = BubleName.safeParse(name)
    if (!parsed.success) return setNameError(parsed.error.issues[0]?.message ?? ERROR_TEXTS.createBuble)
    setNameError(null)
    setError(null)
    setBusy(true)
    const id = uuidv7()
    try {
      await device.mutate('buble.create', { id, name: parsed.data })
    } catch (err) {
      console.error('Could not create the buble', err)
      setError(ERROR_TEXTS.createBuble)
      setBusy(false)
      return
    }
    // No slug until the server answers: the page is reached by id meanwhile.
    navigate(bublePath({ id, slug: '' }))
  }

  return (
    <Modal
      title="Create New Buble"
      onClose={busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create Buble'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <Field
          label="Buble Name"
          value={name}
          onValue={setName}
          error={nameError}
          autoComplete="off"
          hint="For example: Family, Book Club, Climbing Crew."
          required
        />
      </form>
    </Modal>
  )
}
