import { LATEST_POLL_OPTIONS, LATEST_POLLS_COUNT } from '@buble/shared/polls'
import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { usePolls } from '../../data/events.ts'
import { plural } from '../../ui/format.ts'
import { Spinner } from '../../ui/spinner.tsx'

/** Latest Polls (spec part 2 §9): the three newest polls, the first three options of each. */
export function LatestPollsWidget({ buble }: { buble: LocalBuble }) {
  const polls = usePolls(buble.id)
  if (polls.status !== 'ready') return <Spinner label="Loading polls…" />
  const latest = polls.rows.slice(0, LATEST_POLLS_COUNT)
  return (
    <>
      {latest.length === 0 ? (
        <p className="muted">No polls yet. The newest polls show here.</p>
      ) : (
        <ol className="widget-list" aria-label="Latest polls">
          {latest.map((poll) => (
            <li key={poll.id} className="widget-item">
              <span className="widget-item-title clamp-2" title={poll.question}>
                {poll.question}
              </span>
              <ul className="widget-options">
                {(poll.options ?? []).slice(0, LATEST_POLL_OPTIONS).map((option) => (
                  <li key={option.id}>
                    {option.option_text}{' '}
                    {option.votes_count !== null && (
                      <span className="muted">({plural(option.votes_count, 'vote')})</span>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      <Link to={bublePath(buble, 'polls')} className="btn btn-secondary btn-small">
        View all polls
      </Link>
    </>
  )
}
