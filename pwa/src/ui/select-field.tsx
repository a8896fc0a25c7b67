import { type SelectHTMLAttributes, useId } from 'react'

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> {
  label: string
  options: readonly { value: string; label: string }[]
  onValue: (value: string) => void
}

/** A labelled select, styled and wired like Field. */
export function SelectField({ label, options, onValue, id, ...select }: SelectFieldProps) {
  const autoId = useId()
  const selectId = id ?? autoId
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      <select id={selectId} onChange={(event) => onValue(event.target.value)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}
