import { EmailBody, MessageResponse } from '@buble/shared/auth'
import { type FormEvent, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'

/**
 * A form that posts one e-mail address to an auth call answering `{message}` (forgot-password,
 * resend-verification): the address is checked with the shared schema first, the server's message
 * is shown on success, and its error message (else `failure`) on failure.
 */
export function useEmailRequest(path: string, texts: { failure: string; success: string }, initialEmail = '') {
  const api = useApi()
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const body = EmailBody.safeParse({ email })
    if (!body.success) return setError(body.error.issues[0]?.message ?? texts.failure)
    setError(null)
    setBusy(true)
    try {
      const answer = MessageResponse.safeParse(await api.post(path, body.data))
      setSent(answer.success ? answer.data.message : texts.success)
    } catch (err) {
      setError(messageOf(err, texts.failure))
    } finally {
      setBusy(false)
    }
  }

  return { email, setEmail, error, sent, busy, submit }
}
