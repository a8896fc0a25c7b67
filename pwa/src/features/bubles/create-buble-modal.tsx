import { BubleName } from '@buble/shared/bubles'
import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { bublePath, useBubleActions } from '../../data/bubles.ts'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'
import { FormModal } from '../../ui/form-modal.tsx'

/** Creates the buble on this device at once (offline too) and opens it; the server gets it when it can. */
export function CreateBubleModal({ onClose }: { onClose: () => void }) {
  const { createBuble } = useBubleActions()
  const navigate = useNavigate()
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string | null>(null)

  async function submit(): Promise<boolean> {
    const parsed = BubleName.safeParse(name)
    setNameError(parsed.success ? null : (parsed.error.issues[0]?.message ?? ERROR_TEXTS.createBuble))
    if (!parsed.success) return false
    const id = await createBuble(parsed.data)
    // No slug until the server answers: the page is reached by id meanwhile.
    navigate(bublePath({ id, slug: '' }))
    return true
  }

  return (
    <FormModal
      title="Create New Buble"
      size="small"
      submitLabel="Create Buble"
      busyLabel="Creating…"
      failure={ERROR_TEXTS.createBuble}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field
        label="Buble Name"
        value={name}
        onValue={setName}
        error={nameError}
        autoComplete="off"
        hint="For example: Family, Book Club, Climbing Crew."
        required
      />
    </FormModal>
  )
}
