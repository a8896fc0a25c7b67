/**
 * Mute and Unmute in the member modal (issue 24 §2), offered only where `canMute` allows. Both are
 * queued writes (`member.mute` / `member.unmute`): the member's row shows the change at once, also
 * offline, and a refusal by the server lands in the "not saved" list.
 */

import { formatMuteEnd } from '@buble/shared/mute-texts'
import { isIndefiniteMute, isMutedAt, MUTE_DURATIONS, type MuteDuration } from '@buble/shared/mutes'
import { useId, useState } from 'react'
import './mute-controls.css'
import type { LocalMember } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { MUTE_TEXTS } from '../../ui/mute-texts.ts'
import { SelectField } from '../../ui/select-field.tsx'

const DURATION_OPTIONS = MUTE_DURATIONS.map((value) => ({ value, label: MUTE_TEXTS.durations[value] }))

/** 'Muted until Sat 29 Nov, 19:00 CET', 'Muted until unmuted'; null when the member is not muted at `now`. */
export function mutedUntilText(member: Pick<LocalMember, 'muted_until'>, now: number): string | null {
  const until = member.muted_until
  if (!until || !isMutedAt(until, now)) return null
  return MUTE_TEXTS.mutedUntil(isIndefiniteMute(until) ? null : formatMuteEnd(until, now))
}

interface MuteControlsProps {
  bubleId: string
  member: LocalMember
  /** Whether the controls take input (the modal is not busy with another call). */
  enabled: boolean
  /** `now` for whether the member is muted (tests pass a fixed one). */
  now?: number
}

export function MuteControls({ bubleId, member, enabled, now = Date.now() }: MuteControlsProps) {
  const headingId = useId()
  const device = useDevice()
  const [duration, setDuration] = useState<MuteDuration>('1h')
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const muted = mutedUntilText(member, now)

  /** A queued write fails here only when the device's store does; the server's refusal comes by the not-saved list. */
  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true)
    setOutcome(null)
    try {
      await action()
      setOutcome({ ok: true, text: done })
    } catch (err) {
      console.error(ERROR_TEXTS.performAction, err)
      setOutcome({ ok: false, text: ERROR_TEXTS.performAction })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="member-mute" aria-labelledby={headingId}>
      <h3 className="member-mute-title" id={headingId}>
        {MUTE_TEXTS.muteSection}
      </h3>
      {muted ? (
        <div className="member-mute-row">
          <p className="member-mute-state">{muted}</p>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={!enabled || busy}
            onClick={() =>
              void run(
                () => device.mutate('member.unmute', { buble_id: bubleId, user_id: member.user_id }),
                MUTE_TEXTS.unmuted,
              )
            }
          >
            {MUTE_TEXTS.unmuteButton}
          </button>
        </div>
      ) : (
        <div className="member-mute-row">
          <p className="field-hint">{MUTE_TEXTS.muteHint}</p>
          <SelectField
            label={MUTE_TEXTS.durationLabel}
            options={DURATION_OPTIONS}
            value={duration}
            disabled={!enabled || busy}
            onValue={(value) => setDuration(value as MuteDuration)}
          />
          <button
            type="button"
            className="btn btn-danger"
            disabled={!enabled || busy}
            onClick={() =>
              void run(
                () => device.mutate('member.mute', { buble_id: bubleId, user_id: member.user_id, duration }),
                MUTE_TEXTS.muted,
              )
            }
          >
            {MUTE_TEXTS.muteButton}
          </button>
        </div>
      )}
      {outcome && <Alert kind={outcome.ok ? 'success' : 'error'}>{outcome.text}</Alert>}
    </section>
  )
}
