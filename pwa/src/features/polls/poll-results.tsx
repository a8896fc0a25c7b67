import {
  optionBarPercent,
  participationLabel,
  participationPercent,
  pollWinners,
  voteSharePercent,
} from '@buble/shared/polls'
import type { LocalPoll } from '../../data/events.ts'
import { plural } from '../../ui/format.ts'
import { POLL_TEXTS } from './poll-texts.ts'
import './polls.css'

/**
 * A poll's results once the user has voted (spec part 2 §2): votes per option with a bar relative to
 * the member count, the total, the members, and the share of members who voted with its label; beside
 * the bar, each option's share of the votes cast (so 1 of 1 votes does not read as half). A closed
 * poll names its winner (or the tie). Participation counts members who voted, not votes (a poll of
 * several choices has more votes than voters). Bars are <meter> elements: the CSP forbids style
 * attributes, so no inline widths. Called only when the totals are there (not hidden).
 */
export function PollResults({ poll, memberCount, closed }: { poll: LocalPoll; memberCount: number; closed: boolean }) {
  const voters = poll.votersCount ?? poll.totalVotes ?? 0
  const totalVotes = poll.totalVotes ?? 0
  const percent = participationPercent(voters, memberCount)
  const mine = new Set(poll.userVotes ?? (poll.userVote ? [poll.userVote] : []))
  const winners = pollWinners(poll.options)
  return (
    <>
      {closed && (
        <p className="poll-winner">
          <strong>
            {winners.length === 0
              ? POLL_TEXTS.noVotes
              : (winners.length === 1 ? POLL_TEXTS.winner : POLL_TEXTS.tie)(
                  winners.map((option) => option.option_text).join(', '),
                )}
          </strong>
        </p>
      )}
      <ul className="poll-results" aria-label={`Results of ${poll.question}`}>
        {poll.options.map((option) => {
          const votes = option.votes_count ?? 0
          const isMine = mine.has(option.id)
          return (
            <li key={option.id} className={isMine ? 'poll-result poll-result-mine' : 'poll-result'}>
              <div className="poll-result-line">
                <span className="poll-result-text">{option.option_text}</span>
                {isMine && <span className="badge badge-accent">{POLL_TEXTS.yourVote}</span>}
                <span className="poll-result-count">{plural(votes, 'vote')}</span>
              </div>
              <meter
                className="poll-bar"
                min={0}
                max={100}
                value={optionBarPercent(votes, memberCount)}
                aria-label={`${option.option_text}: ${votes} of ${plural(memberCount, 'member')}`}
              />
              <span className="poll-result-share">
                {POLL_TEXTS.share(votes, totalVotes, voteSharePercent(votes, totalVotes))}
              </span>
            </li>
          )
        })}
      </ul>
      <dl className="facts poll-facts">
        <div>
          <dt>Total votes</dt>
          <dd>{totalVotes}</dd>
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
