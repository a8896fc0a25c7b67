import type { MemberActor } from '@buble/shared/permissions'
import type { ToolKey } from '@buble/shared/tools'
import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { TOOL_TEXTS } from '../../features/bubles/tool-texts.ts'
import { EventStatsWidget } from '../../features/events/event-stats-widget.tsx'
import { LatestPollsWidget } from '../../features/polls/latest-polls-widget.tsx'
import { StoriesWidget } from '../../features/stories/stories-widget.tsx'
import { WeatherWidget } from '../../features/weather/weather-widget.tsx'
import { lazyPart } from '../../ui/lazy-part.ts'
import { Spinner } from '../../ui/spinner.tsx'

// Loaded with its card, not with the page: it sits below the first screen, and its search waits for it anyway.
const LocalEventsFinder = lazyPart(
  () => import('../../features/local-events/local-events-finder.tsx'),
  'LocalEventsFinder',
  { fallback: <Spinner label="Loading…" /> },
)

/** What an overview tool's card shows below its title: the tool itself. */
export function ToolBody({ tool, buble, actor }: { tool: ToolKey; buble: LocalBuble; actor: MemberActor }) {
  switch (tool) {
    case 'wall':
      return (
        <>
          <p>{TOOL_TEXTS.wall}</p>
          <Link to={bublePath(buble, 'wall')} className="btn btn-secondary btn-small">
            Open the wall
          </Link>
        </>
      )
    case 'stories':
      return <StoriesWidget buble={buble} />
    case 'weather':
      return (
        <>
          <p>{TOOL_TEXTS.weather}</p>
          <WeatherWidget buble={buble} />
        </>
      )
    case 'local_events':
      return <LocalEventsFinder buble={buble} actor={actor} />
    case 'event_stats':
      return <EventStatsWidget buble={buble} />
    case 'latest_polls':
      return <LatestPollsWidget buble={buble} />
  }
}
