import { can, type MemberActor } from '@buble/shared/permissions'
import { INITIAL_TOOLS, TOOL_KEYS, TOOL_LABELS, type ToolKey } from '@buble/shared/tools'
import { useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { RoleBadge } from '../../features/bubles/role-badge.tsx'
import { PinnedSummary } from '../../features/wall/pinned-summary.tsx'
import { Alert } from '../../ui/alert.tsx'
import { formatDay } from '../../ui/format.ts'
import { lazyPart } from '../../ui/lazy-part.ts'
import { useFlash } from '../../ui/use-flash.ts'
import { ToolBody } from './tool-body.tsx'

const AddToolModal = lazyPart(() => import('../../features/bubles/add-tool-modal.tsx'), 'AddToolModal', {
  fallback: null,
})

const isToolKey = (key: string): key is ToolKey => (TOOL_KEYS as readonly string[]).includes(key)

/** The tools that are on, in display order; a key this version does not know is left out. */
function toolsOf(buble: LocalBuble): ToolKey[] {
  // A row stored before buble rows carried their tools has none: the initial three were on then.
  const stored: readonly string[] = buble.tools ?? INITIAL_TOOLS
  return stored.filter(isToolKey)
}

export function BubleOverviewTab({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const [modal, setModal] = useState<'tools' | null>(null)
  const [flash, showFlash] = useFlash()
  const tools = toolsOf(buble)
  const close = () => setModal(null)
  const saved = (message: string) => () => {
    setModal(null)
    showFlash(message)
  }

  return (
    <div className="overview">
      {flash && <Alert kind="success">{flash}</Alert>}
      <section className="card" aria-labelledby="about-title">
        <div className="card-head">
          <h2 className="section-title" id="about-title">
            About this Buble
          </h2>
        </div>
        <dl className="facts">
          <div>
            <dt>Created</dt>
            <dd>{formatDay(buble.created_at)}</dd>
          </div>
          <div>
            <dt>Owner</dt>
            <dd className="clamp-1" title={buble.owner.name}>
              {buble.owner.name}
            </dd>
          </div>
          <div>
            <dt>Your role</dt>
            <dd>
              <RoleBadge role={buble.my_role} />
            </dd>
          </div>
        </dl>
      </section>

      <PinnedSummary buble={buble} />

      <section aria-labelledby="tools-title">
        <div className="card-head">
          <h2 className="section-title" id="tools-title">
            Tools
          </h2>
          {can(actor, 'tools.manage') && (
            <button
              type="button"
              className="btn btn-primary btn-small"
              onClick={() => setModal('tools')}
              aria-haspopup="dialog"
            >
              Add Tool
            </button>
          )}
        </div>
        <ul className="tool-grid" aria-labelledby="tools-title">
          {tools.map((key) => (
            <li key={key}>
              <article className="card tool-card" aria-labelledby={`tool-${key}`}>
                <h3 id={`tool-${key}`}>{TOOL_LABELS[key]}</h3>
                <ToolBody tool={key} buble={buble} actor={actor} />
              </article>
            </li>
          ))}
        </ul>
      </section>

      {modal === 'tools' && (
        <AddToolModal buble={buble} tools={tools} onClose={close} onSaved={saved('Tools updated')} />
      )}
    </div>
  )
}
