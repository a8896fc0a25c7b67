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
import { POLL_TEXTS } from './poll-texts.ts'

export interface PollValues {
  question: string
  options: string[]
}

type PollFormModalProps = EditorModalProps<PollValues>

type Errors = { question?: string; options: (string | undefined)[]; list?: string }

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
export function PollFormModal({ initial, ...editor }: PollFormModalProps) {
  const [draft, setDraft] = useState<PollValues>(() => withMinimum(initial ?? { question: '', options: [] }))
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

  function checkDraft(): PollValues | null {
    const checked = check(draft)
    setErrors('errors' in checked ? checked.errors : { options: [] })
    return 'values' in checked ? checked.values : null
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
    </EditorFormModal>
  )
}
