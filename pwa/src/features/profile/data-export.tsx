/**
 * "Download my data": the server's ZIP of everything the user wrote or uploaded, fetched with the
 * session's token and saved as a file. Online only: the archive is built by the server on request.
 */

import { useId, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'

/** Where the archive is made (api/src/features/privacy/routes.ts). */
export const DATA_EXPORT_PATH = '/users/me/export'

export const DATA_EXPORT_TEXTS = {
  title: 'Download my data',
  explanation:
    'Get a copy of everything you have written or uploaded in Buble: your profile, memberships, posts, comments, reactions, stories, chat messages, events, polls, votes and files, in one ZIP file.',
  button: 'Download my data',
  preparing: 'Preparing your data…',
  done: 'Your data has been downloaded.',
  failed: 'Failed to download your data',
  offline: 'You are offline. Connect to the internet to download your data.',
} as const

/** The name the server gave the file, else one of the same form. */
export function fileNameOf(disposition: string | null, now = new Date()): string {
  const named = disposition?.match(/filename="([^"]+)"/)?.[1]
  return named ?? `buble-data-${now.toISOString().slice(0, 10)}.zip`
}

/** Hands a blob to the browser as a download named `name`. */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked later: some browsers start reading the blob only after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

type State = { step: 'idle' } | { step: 'preparing' } | { step: 'done' } | { step: 'failed'; message: string }

/** The button with its progress, outcome and offline explanation; used on the profile and in the deletion dialog. */
export function DataExportButton({ className = 'btn btn-secondary' }: { className?: string }) {
  const api = useApi()
  const online = useOnline()
  const [state, setState] = useState<State>({ step: 'idle' })
  const hintId = useId()

  async function download() {
    setState({ step: 'preparing' })
    try {
      const res = await api.open(DATA_EXPORT_PATH)
      const blob = await res.blob()
      saveBlob(blob, fileNameOf(res.headers.get('content-disposition')))
      setState({ step: 'done' })
    } catch (err) {
      setState({ step: 'failed', message: messageOf(err, DATA_EXPORT_TEXTS.failed) })
    }
  }

  const preparing = state.step === 'preparing'
  return (
    <div className="data-export">
      <button
        type="button"
        className={className}
        onClick={() => void download()}
        disabled={!online || preparing}
        aria-describedby={online ? undefined : hintId}
      >
        {DATA_EXPORT_TEXTS.button}
      </button>
      {!online && (
        <p className="field-hint" id={hintId}>
          {DATA_EXPORT_TEXTS.offline}
        </p>
      )}
      {/* Always present, so screen readers announce the progress when it changes. */}
      <div role="status" aria-live="polite">
        {preparing && <div className="alert alert-info">{DATA_EXPORT_TEXTS.preparing}</div>}
        {state.step === 'done' && <div className="alert alert-success">{DATA_EXPORT_TEXTS.done}</div>}
      </div>
      {state.step === 'failed' && <Alert kind="error">{state.message}</Alert>}
    </div>
  )
}

/** The profile's "Download my data" section. */
export function DataExportSection() {
  const titleId = useId()
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId}>
        {DATA_EXPORT_TEXTS.title}
      </h2>
      <p className="field-hint">{DATA_EXPORT_TEXTS.explanation}</p>
      <DataExportButton />
    </section>
  )
}
