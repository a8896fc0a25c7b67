/**
 * The profile's Calendar section: when events remind the member, and their private calendar link
 * with Copy and Reset. Online only: both live on the server (api/src/features/calendar).
 */

import { CalendarSettings, ReminderChoice } from '@buble/shared/calendar'
import { useId, useState } from 'react'
import { useOnlineQuery } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { SelectField } from '../../ui/select-field.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useConfirm } from '../../ui/use-confirm.tsx'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { useFlash } from '../../ui/use-flash.ts'
import { CALENDAR_TEXTS, REMINDER_OPTIONS } from './calendar-texts.ts'
import './calendar.css'

export function CalendarSection() {
  const api = useApi()
  const load = useOnlineQuery(
    'calendar-settings',
    async (signal) => CalendarSettings.parse(await api.get('/users/calendar', signal)),
    { failure: CALENDAR_TEXTS.failed, offline: CALENDAR_TEXTS.offline, retryOnce: true },
  )
  return (
    <section className="card calendar-section" aria-label={CALENDAR_TEXTS.title}>
      <h2>{CALENDAR_TEXTS.title}</h2>
      {load.status === 'loading' && <Spinner label={CALENDAR_TEXTS.loading} />}
      {load.status === 'failed' && (
        <>
          <Alert kind="error">{load.message}</Alert>
          <button type="button" className="btn btn-secondary" onClick={load.reload}>
            {CALENDAR_TEXTS.tryAgain}
          </button>
        </>
      )}
      {load.status === 'ready' && (
        <CalendarSettingsForm settings={load.data} onSaved={(next) => load.update(() => next)} />
      )}
    </section>
  )
}

function CalendarSettingsForm({
  settings,
  onSaved,
}: {
  settings: CalendarSettings
  onSaved: (settings: CalendarSettings) => void
}) {
  const api = useApi()
  const link = useCopy()
  const { ask, dialog } = useConfirm()
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, showNotice] = useFlash()
  const linkId = useId()
  const hintId = useId()

  async function choose(value: string) {
    const reminder = ReminderChoice.parse(value)
    setSaving(true)
    setProblem(null)
    try {
      onSaved(CalendarSettings.parse(await api.put('/users/calendar', { reminder })))
      showNotice(CALENDAR_TEXTS.reminderSaved)
    } catch {
      setProblem(CALENDAR_TEXTS.reminderFailed)
    } finally {
      setSaving(false)
    }
  }

  const reset = () =>
    ask({
      title: CALENDAR_TEXTS.resetTitle,
      body: <p>{CALENDAR_TEXTS.resetBody}</p>,
      confirmLabel: CALENDAR_TEXTS.resetConfirm,
      busyLabel: CALENDAR_TEXTS.resetBusy,
      danger: true,
      failure: CALENDAR_TEXTS.resetFailed,
      run: async () => {
        onSaved(CalendarSettings.parse(await api.post('/users/calendar/reset-feed')))
        showNotice(CALENDAR_TEXTS.resetDone)
      },
    })

  return (
    <>
      <SelectField
        label={CALENDAR_TEXTS.reminderLabel}
        options={REMINDER_OPTIONS}
        value={settings.reminder}
        onValue={(value) => void choose(value)}
        disabled={saving}
        aria-describedby={hintId}
      />
      <p className="field-hint" id={hintId}>
        {CALENDAR_TEXTS.reminderHint}
      </p>
      <div className="field calendar-link-field">
        <label htmlFor={linkId}>{CALENDAR_TEXTS.feedLabel}</label>
        <p className="field-hint">{CALENDAR_TEXTS.feedHint}</p>
        <input
          id={linkId}
          className="calendar-link"
          value={settings.feed_url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className="calendar-link-actions">
          <button type="button" className="btn btn-primary" onClick={() => void link.copy(settings.feed_url)}>
            {link.copied ? CALENDAR_TEXTS.copied : CALENDAR_TEXTS.copy}
          </button>
          <a className="btn btn-secondary" href={settings.feed_url}>
            {CALENDAR_TEXTS.subscribe}
          </a>
          <button type="button" className="btn btn-secondary" onClick={reset}>
            {CALENDAR_TEXTS.reset}
          </button>
        </div>
      </div>
      {link.failed && <Alert kind="error">{COPY_FAILED}</Alert>}
      {problem && <Alert kind="error">{problem}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      {dialog}
    </>
  )
}
