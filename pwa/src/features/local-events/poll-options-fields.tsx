import { POLL_MAX_OPTIONS, POLL_MIN_OPTIONS } from '@buble/shared/polls'
import { Field } from '../../ui/field.tsx'

/** The options of the poll an event may bring along: editable, 2 to 10 of them (spec part 2 §5). */
export function PollOptionsFields({ options, onChange }: { options: string[]; onChange: (options: string[]) => void }) {
  const set = (index: number, value: string) => onChange(options.map((option, i) => (i === index ? value : option)))
  return (
    <fieldset className="poll-options">
      <legend>Options</legend>
      <ol className="poll-option-list">
        {options.map((option, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: options are edited in place; the position is the identity.
          <li key={index} className="poll-option-row">
            <Field
              label={`Option ${index + 1}`}
              value={option}
              onValue={(value) => set(index, value)}
              maxLength={200}
            />
            <button
              type="button"
              className="btn btn-light btn-small"
              aria-label={`Remove option ${index + 1}`}
              disabled={options.length <= POLL_MIN_OPTIONS}
              onClick={() => onChange(options.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        disabled={options.length >= POLL_MAX_OPTIONS}
        onClick={() => onChange([...options, ''])}
      >
        Add option
      </button>
      <p className="field-hint">With fewer than {POLL_MIN_OPTIONS} filled-in options, no poll is created.</p>
    </fieldset>
  )
}
