import { applyUpdate, useUpdateReady } from './service-worker.ts'

export function UpdatePrompt() {
  const ready = useUpdateReady()
  if (!ready) return null
  return (
    <div className="toast" role="status">
      <span>A new version of Buble is ready</span>
      <button type="button" className="btn btn-small btn-light" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  )
}
