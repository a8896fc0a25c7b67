import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { AvatarStack } from '../../ui/avatar-stack.tsx'
import { formatDay, plural } from '../../ui/format.ts'

const CARD_BADGES = 3

export function BubleCard({ buble }: { buble: LocalBuble }) {
  return (
    <article className="card buble-card">
      <h2 className="buble-card-name clamp-2" title={buble.name}>
        {/* Stretched over the whole card (CSS), so the card is one big target with one link name. */}
        <Link to={bublePath(buble)} className="stretched-link">
          {buble.name}
        </Link>
      </h2>
      <p className="buble-card-meta">
        <span>Created {formatDay(buble.created_at)}</span>
        <span>{plural(buble.member_count, 'member')}</span>
      </p>
      <div className="buble-card-foot">
        <AvatarStack people={buble.members} total={buble.member_count} max={CARD_BADGES} size={32} images={false} />
        {buble._pending && <span className="badge badge-warning">Not synced yet</span>}
      </div>
    </article>
  )
}
