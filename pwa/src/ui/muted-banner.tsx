import { mutedMessage } from '@buble/shared/mute-message'
import { MUTE_TEXTS } from './mute-texts.ts'

/** The banner at the top of the buble while its member is muted (issue 24 §2): until when, and what waits. */
export function MutedBanner({ until }: { until: string }) {
  return (
    <div className="alert alert-warning muted-banner" role="status">
      <strong>{mutedMessage(until)}.</strong> {MUTE_TEXTS.bannerHint}
    </div>
  )
}
