import {
  POLL_MAX_OPTIONS,
  POLL_MESSAGES,
  POLL_MIN_OPTIONS,
  PollOptions,
  PollOptionText,
  PollQuestion,
} from '@buble/shared/polls'
import { useState } from 'react'
import { Field } from '../../ui/field.tsx'
import { EditorFormModal, type EditorModalProps } from '../../ui/form-modal.tsx'
import { fromLocalInput, viewerZoneHint } from '../../ui/format.ts'
import { POLL_TEXTS } from './poll-texts.ts'

export interface PollValues {
  question: string
  options: string[]
}

/** A new poll's settings, fixed once it is made (docs/decisions/0098). */
export interface PollSettings {
  closes_at: string | null
  multiple: boolean
  hide_results: boolean
  secret: boolean
}

type PollFormModalProps = EditorModalProps<PollValues & Partial<PollSettings>> & {
  /** Create only: the closing time, several choices, hidden results and secret ballot. */
  withSettings?: boolean
}

type Errors = { question?: string; options: (string | undefined)[]; list?: string; closes?: string }

const SETTINGS: { key: 'multiple' | 'hide_results' | 'secret'; label: string; hint: string }[] = [
  { key: 'multiple', label: POLL_TEXTS.several, hint: POLL_TEXTS.severalHint },
  { key: 'hide_results', label: POLL_TEXTS.hideResults, hint: POLL_TEXTS.hideResultsHint },
  { key: 'secret', label: POLL_TEXTS.secret, hint: POLL_TEXTS.secretHint },
]

/** The settings as the poll.create mutation takes them, or the closing time's problem. */
function checkSettings(closes: string, flags: Omit<PollSettings, 'closes_at'>): PollSettings | string {
  const closesAt = closes.trim() ? fromLocalInput(closes) : null
  if (closes.trim() && !closesAt) return POLL_MESSAGES.closesAtInvalid
  if (closesAt && Date.parse(closesAt) <= Date.now()) return POLL_MESSAGES.closesAtPast
  if (flags.hide_results && !closesAt) return POLL_MESSAGES.hiddenNeedsClosing
  return { closes_at: closesAt, ...flags }
}

/** The question, each option's own problem, and problems of the list as a whole (duplicates). */
function check(draft: PollValues): { values: PollValues } | { errors: Errors } {
  const question = PollQuestion.safeParse(draft.question)
  const options = draft.options.map((option) => PollOptionText.safeParse(option))
  const errors: Errors = {
    question: question.success ? undefined : question.error.issues[0]?.message,
    options: options.map((option) => (option.success ? undefined : option.error.issues[0]?.message)),
  }
  if (!question.success || errors.options.some(Boolean)) return { errors }
  const list = PollOptions.safeParse(options.map((option) => option.data))
  if (!list.success)
    return { errors: { ...errors, list: list.error.issues[0]?.message ?? POLL_MESSAGES.optionRequired } }
  return { values: { question: question.data, options: list.data } }
}

/** A poll with fewer options than a poll needs (one with none, say) is edited from empty fields. */
const withMinimum = (values: PollValues): PollValues => ({
  ...values,
  options: [...values.options, ...Array<string>(Math.max(0, POLL_MIN_OPTIONS - values.options.length)).fill('')],
})

/** Create Poll and Edit Poll: a question and 2 to 10 options (spec part 2 §5, §9). */
export function PollFormModal({ initial, withSettings = false, ...editor }: PollFormModalProps) {
  const [draft, setDraft] = useState<PollValues>(() => withMinimum(initial ?? { question: '', options: [] }))
  const [closes, setCloses] = useState('')
  const [flags, setFlags] = useState({ multiple: false, hide_results: false, secret: false })
  // Stable keys, so removing an option keeps the others' fields (and focus) where they are.
  const [keys, setKeys] = useState(() => draft.options.map((_, i) => i))
  const [errors, setErrors] = useState<Errors>({ options: [] })
  const count = draft.options.length

  const setOption = (index: number, value: string) =>
    setDraft({ ...draft, options: draft.options.map((option, i) => (i === index ? value : option)) })
  const addOption = () => {
    setDraft({ ...draft, options: [...draft.options, ''] })
    setKeys([...keys, Math.max(-1, ...keys) + 1])
  }
  const removeOption = (index: number) => {
    setDraft({ ...draft, options: draft.options.filter((_, i) => i !== index) })
    setKeys(keys.filter((_, i) => i !== index))
    setErrors({ ...errors, options: errors.options.filter((_, i) => i !== index) })
  }

  function checkDraft(): (PollValues & Partial<PollSettings>) | null {
    const checked = check(draft)
    const settings = withSettings ? checkSettings(closes, flags) : {}
    const closesError = typeof settings === 'string' ? settings : undefined
    setErrors({ ...('errors' in checked ? checked.errors : { options: [] }), closes: closesError })
    if (!('values' in checked) || typeof settings === 'string') return null
    return { ...checked.values, ...settings }
  }

  return (
    <EditorFormModal editor={editor} check={checkDraft}>
      <Field
        label="Question"
        value={draft.question}
        onValue={(question) => setDraft({ ...draft, question })}
        error={errors.question}
        autoComplete="off"
        required
      />
      <fieldset className="plain-fieldset poll-option-fields">
        <legend>Options</legend>
        {draft.options.map((option, index) => (
          <div className="poll-option-field" key={keys[index]}>
            <Field
              label={`Option ${index + 1}`}
              value={option}
              onValue={(value) => setOption(index, value)}
              error={errors.options[index]}
              autoComplete="off"
            />
            <button
              type="button"
              className="link-button link-button-danger"
              disabled={count <= POLL_MIN_OPTIONS}
              onClick={() => removeOption(index)}
            >
              Remove <span className="visually-hidden">option {index + 1}</span>
            </button>
          </div>
        ))}
        {errors.list && <p className="field-error">{errors.list}</p>}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={count >= POLL_MAX_OPTIONS}
          onClick={addOption}
        >
          {POLL_TEXTS.addOption}
        </button>
      </fieldset>
      {withSettings && (
        <>
          <Field
            label={POLL_TEXTS.closesLabel}
            type="datetime-local"
            value={closes}
            onValue={setCloses}
            error={errors.closes}
            hint={`${POLL_TEXTS.closesHint} ${viewerZoneHint()}`}
          />
          <fieldset className="plain-fieldset">
            <legend>{POLL_TEXTS.settings}</legend>
            <ul className="permission-list">
              {SETTINGS.map(({ key, label, hint }) => (
                <li key={key} className="permission">
                  <input
                    type="checkbox"
                    id={`poll-setting-${key}`}
                    checked={flags[key]}
                    aria-describedby={`poll-setting-${key}-hint`}
                    onChange={(event) => setFlags({ ...flags, [key]: event.target.checked })}
                  />
                  <label htmlFor={`poll-setting-${key}`}>{label}</label>
                  <span className="permission-hint" id={`poll-setting-${key}-hint`}>
                    {hint}
                  </span>
                </li>
              ))}
            </ul>
          </fieldset>
        </>
      )}
    </EditorFormModal>
  )
}
