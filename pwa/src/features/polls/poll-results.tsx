import { optionBarPercent, participationLabel, participationPercent, voteSharePercent } from '@buble/shared/polls'
import type { LocalPoll } from '../../data/events.ts'
import { plural } from '../../ui/format.ts'
import { POLL_TEXTS } from './poll-texts.ts'
import './polls.css'

/**
 * A poll's results once the user has voted (spec part 2 §2): votes per option with a bar relative to
 * the member count, the total, the members, and the share of members who voted with its label; beside
 * the bar, each option's share of the votes cast (so 1 of 1 votes does not read as half).
 * Bars are <meter> elements: the CSP forbids style attributes, so no inline widths.
 */
export function PollResults({ poll, memberCount }: { poll: LocalPoll; memberCount: number }) {
  const percent = participationPercent(poll.totalVotes, memberCount)
  return (
    <>
      <ul className="poll-results" aria-label={`Results of ${poll.question}`}>
        {poll.options.map((option) => {
          const mine = option.id === poll.userVote
          return (
            <li key={option.id} className={mine ? 'poll-result poll-result-mine' : 'poll-result'}>
              <div className="poll-result-line">
                <span className="poll-result-text">{option.option_text}</span>
                {mine && <span className="badge badge-accent">{POLL_TEXTS.yourVote}</span>}
                <span className="poll-result-count">{plural(option.votes_count, 'vote')}</span>
              </div>
              <meter
                className="poll-bar"
                min={0}
                max={100}
                value={optionBarPercent(option.votes_count, memberCount)}
                aria-label={`${option.option_text}: ${option.votes_count} of ${plural(memberCount, 'member')}`}
              />
              <span className="poll-result-share">
                {POLL_TEXTS.share(
                  option.votes_count,
                  poll.totalVotes,
                  voteSharePercent(option.votes_count, poll.totalVotes),
                )}
              </span>
            </li>
          )
        })}
      </ul>
      <dl className="facts poll-facts">
        <div>
          <dt>Total votes</dt>
          <dd>{poll.totalVotes}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd>{memberCount}</dd>
        </div>
        <div>
          <dt>Members who voted</dt>
          <dd>
            {percent}% <span className="badge">{participationLabel(percent)}</span>
          </dd>
        </div>
      </dl>
    </>
  )
}
