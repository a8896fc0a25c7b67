import { Email } from '@buble/shared/auth'
import { Invite } from '@buble/shared/bubles'
import { type FormEvent, useState } from 'react'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'
import { INVITE_TEXTS } from './invite-texts.ts'

const EMAIL_OFFLINE = 'You are offline. Sending an invite needs a connection.'

/**
 * Mails a fresh invite code to one address (the server makes a pending account for a stranger), and
 * confirms it here: the mailed code is the addressee's, so the code the dialog shows stays as it is.
 */
export function InviteEmailForm({
  bubleId,
  onSent,
}: {
  bubleId: string
  onSent: (email: string, invite: Invite) => void
}) {
  const api = useApi()
  const call = useOnlineCall(EMAIL_OFFLINE)
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  /** The address of the last invite sent: its own confirmation, beside this form. */
  const [sentTo, setSentTo] = useState<string | null>(null)

  async function send(event: FormEvent) {
    event.preventDefault()
    const parsed = Email.safeParse(email)
    if (!parsed.success) return setEmailError(parsed.error.issues[0]?.message ?? ERROR_TEXTS.generateInvite)
    setEmailError(null)
    setSentTo(null)
    const outcome = await call.run(
      async () => Invite.parse(await api.post(`/bubles/${bubleId}/invites`, { email: parsed.data })),
      ERROR_TEXTS.generateInvite,
    )
    if (!outcome.ok) return
    setEmail('')
    setSentTo(parsed.data)
    onSent(parsed.data, outcome.value)
  }

  return (
    <form className="invite-email" onSubmit={(event) => void send(event)} noValidate>
      <h3 className="invite-email-title">Or send an invite by e-mail</h3>
      {call.error && <Alert kind="error">{call.error}</Alert>}
      {sentTo && (
        <div className="invite-sent">
          <Alert kind="success">{INVITE_TEXTS.sentTo(sentTo)}</Alert>
          <p className="muted">{INVITE_TEXTS.sentDetail}</p>
        </div>
      )}
      <Field
        label="E-mail address"
        type="email"
        value={email}
        onValue={setEmail}
        error={emailError}
        autoComplete="off"
        hint="They get their own code, and a link to sign up if they have no account yet."
        required
      />
      <button type="submit" className="btn btn-secondary btn-block" disabled={call.busy}>
        {call.busy ? 'Sending…' : 'Send invite'}
      </button>
    </form>
  )
}
