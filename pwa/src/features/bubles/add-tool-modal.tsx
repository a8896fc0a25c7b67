import { FIXED_TOOLS, TOOL_KEYS, TOOL_LABELS, type ToolKey } from '@buble/shared/tools'
import { type FormEvent, useId, useState } from 'react'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Modal } from '../../ui/modal.tsx'
import { BUBLE_NOT_SYNCED } from './buble-texts.ts'
import { TOOL_TEXTS } from './tool-texts.ts'

const FORM_ID = 'add-tool-form'
const TOOLS_OFFLINE = 'You are offline. Changing tools needs a connection.'

interface AddToolModalProps {
  buble: { id: string; slug: string }
  /** The tools on now. */
  tools: readonly ToolKey[]
  onClose: () => void
  onSaved: () => void
}

/** The owner turns the optional overview tools on or off, Local Events among them; Wall and Stories stay (decision 83). */
export function AddToolModal({ buble, tools, onClose, onSaved }: AddToolModalProps) {
  const api = useApi()
  const id = useId()
  const call = useOnlineCall(TOOLS_OFFLINE)
  const [on, setOn] = useState<ReadonlySet<ToolKey>>(() => new Set(tools))
  const enabled = TOOL_KEYS.filter((key) => FIXED_TOOLS.includes(key) || on.has(key))
  const changed = enabled.some((key) => !tools.includes(key)) || tools.some((key) => !enabled.includes(key))

  function toggle(key: ToolKey, checked: boolean) {
    setOn((current) => {
      const next = new Set(current)
      if (checked) next.add(key)
      else next.delete(key)
      return next
    })
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    if (!buble.slug) return call.setError(BUBLE_NOT_SYNCED)
    const outcome = await call.run(
      () => api.put(`/bubles/${buble.id}/tools`, { enabled }),
      ERROR_TEXTS.performAction,
      // The buble row, and so the cards, change with the pull that follows.
      { synced: true },
    )
    if (outcome.ok) onSaved()
  }

  return (
    <Modal
      title="Add Tool"
      onClose={call.busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={call.busy}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={call.busy || !changed}>
            {call.busy ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={(event) => void save(event)} noValidate>
        {call.error && <Alert kind="error">{call.error}</Alert>}
        <fieldset className="plain-fieldset" disabled={call.busy}>
          <legend className="visually-hidden">Overview tools</legend>
          <ul className="permission-list tool-choices">
            {TOOL_KEYS.map((key) => {
              const fixed = FIXED_TOOLS.includes(key)
              const inputId = `${id}-${key}`
              return (
                <li key={key} className="permission">
                  <input
                    type="checkbox"
                    id={inputId}
                    checked={fixed || on.has(key)}
                    disabled={fixed}
                    aria-describedby={`${inputId}-hint`}
                    onChange={(event) => toggle(key, event.target.checked)}
                  />
                  <label htmlFor={inputId}>{TOOL_LABELS[key]}</label>
                  <span className="permission-hint" id={`${inputId}-hint`}>
                    {fixed ? `Always on. ${TOOL_TEXTS[key]}` : TOOL_TEXTS[key]}
                  </span>
                </li>
              )
            })}
          </ul>
        </fieldset>
      </form>
    </Modal>
  )
}
