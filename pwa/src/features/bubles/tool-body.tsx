import type { MemberActor } from '@buble/shared/permissions'
import type { ToolKey } from '@buble/shared/tools'
import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { StoriesWidget } from '../stories/stories-widget.tsx'
import { TOOL_TEXTS } from './tool-texts.ts'

/** What an overview tool's card shows below its title: the tool itself. */
export function ToolBody({ tool, buble }: { tool: ToolKey; buble: LocalBuble; actor: MemberActor }) {
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
      return <ComingSoon tool={tool} />
    case 'local_events':
      return <ComingSoon tool={tool} />
    case 'event_stats':
      return <ComingSoon tool={tool} />
    case 'latest_polls':
      return <ComingSoon tool={tool} />
  }
}

function ComingSoon({ tool }: { tool: ToolKey }) {
  return (
    <>
      <p>{TOOL_TEXTS[tool]}</p>
      <span className="badge">Coming soon</span>
    </>
  )
}
