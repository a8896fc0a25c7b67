import { Buble, BubleName } from '@buble/shared/bubles'
import { type FormEvent, useState } from 'react'
import { bubleChange, type LocalBuble } from '../../data/bubles.ts'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { BUBLE_NOT_SYNCED } from './buble-texts.ts'

const FORM_ID = 'rename-buble-form'
const RENAME_OFFLINE = 'You are offline. Renaming a Buble needs a connection.'

/** Renames the buble (needs manage_buble); the slug stays, so links keep working. */
export function RenameBubleModal({
  buble,
  onClose,
  onSaved,
}: {
  buble: LocalBuble
  onClose: () => void
  onSaved: () => void
}) {
  const api = useApi()
  const call = useOnlineCall(RENAME_OFFLINE)
  const [name, setName] = useState(buble.name)
  const [nameError, setNameError] = useState<string | null>(null)

  async function save(event: FormEvent) {
    event.preventDefault()
    const parsed = BubleName.safeParse(name)
    if (!parsed.success) return setNameError(parsed.error.issues[0]?.message ?? ERROR_TEXTS.performAction)
    setNameError(null)
    if (!buble.slug) return call.setError(BUBLE_NOT_SYNCED)
    const outcome = await call.run(
      async () => Buble.parse(await api.patch(`/bubles/${buble.id}`, { name: parsed.data })),
      ERROR_TEXTS.performAction,
      { synced: (renamed) => [bubleChange(renamed)] },
    )
    if (outcome.ok) onSaved()
  }

  return (
    <Modal
      title="Rename Buble"
      onClose={call.busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={call.busy}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={call.busy}>
            {call.busy ? 'Renaming…' : 'Rename'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={(event) => void save(event)} noValidate>
        {call.error && <Alert kind="error">{call.error}</Alert>}
        <Field
          label="Buble Name"
          value={name}
          onValue={setName}
          error={nameError}
          autoComplete="off"
          hint="The address of the Buble stays the same."
          required
        />
      </form>
    </Modal>
  )
}
