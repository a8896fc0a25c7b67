import type { LocalBuble } from '../../data/bubles.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { formatDay, plural } from '../../ui/format.ts'
import { RoleBadge } from './role-badge.tsx'

export function OverviewTab({ buble }: { buble: LocalBuble }) {
  return (
    <div className="overview">
      <section className="card" aria-labelledby="about-title">
        <h2 className="section-title" id="about-title">
          About this Buble
        </h2>
        <dl className="facts">
          <div>
            <dt>Members</dt>
            <dd>{plural(buble.member_count, 'member')}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDay(buble.created_at)}</dd>
          </div>
          <div>
            <dt>Owner</dt>
            <dd>{buble.owner.name}</dd>
          </div>
          <div>
            <dt>Your role</dt>
            <dd>
              <RoleBadge role={buble.my_role} />
            </dd>
          </div>
        </dl>
      </section>
      <EmptyState title="Widgets">
        <p>The wall, stories, weather and local events widgets arrive here in an upcoming update.</p>
      </EmptyState>
    </div>
  )
}
