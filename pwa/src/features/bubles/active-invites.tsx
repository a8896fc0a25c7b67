/**
 * The buble's active invite codes in the invite modal (its viewer may invite). An online-only list,
 * as generating a code is: codes are not synced (only inviters need them, and only here).
 */

import { type ActiveInvite, ActiveInvites } from '@buble/shared/bubles'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { Spinner } from '../../ui/spinner.tsx'

export const INVITE_LIST_TEXTS = {
  heading: 'Active codes',
  loading: 'Loading codes…',
  loadFailed: 'Failed to load invite codes',
  offline: 'You are offline. The list of codes needs a connection.',
  empty: 'No active codes. Used, revoked and expired codes are not listed.',
  retry: 'Try again',
} as const

type ListState =
  | { status: 'loading' }
  | { status: 'ready'; invites: ActiveInvite[] }
  | { status: 'failed'; message: string }

/** The list as the server has it: loaded on open, again on `reload`; `drop` forgets a revoked code at once. */
export function useActiveInvites(bubleId: string) {
  const api = useApi()
  const [state, setState] = useState<ListState>({ status: 'loading' })
  const latest = useRef(0)

  const reload = useCallback(async () => {
    const call = ++latest.current
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }))
    let next: ListState
    if (!navigator.onLine) next = { status: 'failed', message: INVITE_LIST_TEXTS.offline }
    else {
      try {
        next = { status: 'ready', invites: ActiveInvites.parse(await api.get(`/bubles/${bubleId}/invites`)).invites }
      } catch (err) {
        // fetch rejects with a TypeError when no answer came at all.
        const message =
          err instanceof TypeError ? INVITE_LIST_TEXTS.offline : messageOf(err, INVITE_LIST_TEXTS.loadFailed)
        next = { status: 'failed', message }
      }
    }
    // Only the newest call speaks (a reload after a send overtakes the first load).
    if (call === latest.current) setState(next)
  }, [api, bubleId])

  useEffect(() => {
    void reload()
    // A late answer after the modal closed is dropped.
    return () => {
      latest.current += 1
    }
  }, [reload])

  const drop = (code: string) =>
    setState((current) =>
      current.status === 'ready'
        ? { status: 'ready', invites: current.invites.filter((invite) => invite.code !== code) }
        : current,
    )

  return { state, reload, drop }
}

interface ActiveInviteListProps {
  state: ListState
  onRetry: () => void
  onRevoke: (invite: ActiveInvite) => void
  /** Revoking is an online call: its buttons wait while one runs. */
  disabled: boolean
  /** What the last revoke did. */
  notice: string | null
}

export function ActiveInviteList({ state, onRetry, onRevoke, disabled, notice }: ActiveInviteListProps) {
  const headingId = useId()
  return (
    <section className="invite-list" aria-labelledby={headingId}>
      <h3 id={headingId} className="invite-list-title">
        {INVITE_LIST_TEXTS.heading}
      </h3>
      {notice && <Alert kind="success">{notice}</Alert>}
      {state.status === 'loading' && <Spinner label={INVITE_LIST_TEXTS.loading} />}
      {state.status === 'failed' && (
        <div className="invite-list-failed">
          <Alert kind="error">{state.message}</Alert>
          <button type="button" className="btn btn-secondary btn-small" onClick={onRetry}>
            {INVITE_LIST_TEXTS.retry}
          </button>
        </div>
      )}
      {state.status === 'ready' && state.invites.length === 0 && <p className="muted">{INVITE_LIST_TEXTS.empty}</p>}
      {state.status === 'ready' && state.invites.length > 0 && (
        <ul className="invite-rows">
          {state.invites.map((invite) => (
            <li key={invite.code} className="invite-row">
              <div className="invite-row-text">
                <code className="invite-code-inline">{invite.code}</code>
                {invite.email && <span className="invite-row-meta">For {invite.email}</span>}
                <span className="invite-row-meta">
                  {invite.created_by ? `Made by ${invite.created_by.name} · ` : ''}
                  Expires {formatMoment(invite.expires_at)}
                </span>
              </div>
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => onRevoke(invite)}
                aria-label={`Revoke code ${invite.code}`}
                aria-haspopup="dialog"
                disabled={disabled}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
