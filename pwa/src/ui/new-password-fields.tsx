import { Field } from './field.tsx'
import { PASSWORD_HINT } from './password-hint.ts'

/** The "new password" and "confirm new password" pair, with the rule hint, as every password form shows it. */
export function NewPasswordFields(props: {
  password: string
  onPassword: (value: string) => void
  confirm: string
  onConfirm: (value: string) => void
}) {
  return (
    <>
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        value={props.password}
        onValue={props.onPassword}
        hint={PASSWORD_HINT}
      />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
        value={props.confirm}
        onValue={props.onConfirm}
      />
    </>
  )
}
