import { relativeTime } from '@buble/shared/time'
import { formatMoment } from './format.ts'

/** '5m ago', with the full date and time on hover and for assistive technology. */
export function RelativeTime({ iso, now, className }: { iso: string; now: number; className?: string }) {
  return (
    <time dateTime={iso} title={formatMoment(iso)} className={className}>
      {relativeTime(iso, now)}
    </time>
  )
}
