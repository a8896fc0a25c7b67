/**
 * `npm run analyze -w @buble/pwa`: builds with the visualizer (ANALYZE=1, vite.config.ts), then prints every
 * chunk's gzipped size, each route's first load, and what each package costs in it. Nothing is written to the
 * repository: the visualizer's data goes to the system's temporary folder.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUDGET_BYTES, firstLoad, gzipSize, ROUTES } from './first-load.ts'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

console.log('chunk → gzipped')
const assets = readdirSync(path.join(dist, 'assets')).filter((file) => /\.(js|css)$/.test(file))
const sized = assets.map((file) => [file, gzipSize(dist, `assets/${file}`)] as const).sort((a, b) => b[1] - a[1])
for (const [file, size] of sized) console.log(`  ${kib(size).padStart(10)}  ${file}`)

for (const [route, modules] of Object.entries(ROUTES)) {
  const load = firstLoad(dist, modules)
  const verdict = load.gzip <= BUDGET_BYTES ? 'within' : 'OVER'
  console.log(`\n${route}: ${kib(load.gzip)} gzipped (${verdict} ${kib(BUDGET_BYTES)})`)
  for (const file of load.files) console.log(`  ${kib(gzipSize(dist, file)).padStart(10)}  ${file}`)
}

// What each package weighs in each chunk: gzipped one module at a time, so it overstates a little.
const stats = path.join(os.tmpdir(), 'buble-pwa-stats.json')
if (existsSync(stats)) {
  interface Stats {
    nodeParts: Record<string, { gzipLength: number }>
    nodeMetas: Record<string, { id: string; moduleParts: Record<string, string> }>
  }
  const { nodeParts, nodeMetas }: Stats = JSON.parse(readFileSync(stats, 'utf8'))
  const owner = (id: string) => {
    const inModules = id.split('node_modules/').at(-1) ?? id
    if (id.includes('node_modules/'))
      return inModules
        .split('/')
        .slice(0, inModules.startsWith('@') ? 2 : 1)
        .join('/')
    const ours = /\/(shared|sync|pwa)\/src\/(.*)$/.exec(id)
    return ours
      ? `${ours[1]}/${ours[2]!
          .split('/')
          .slice(0, ours[1] === 'pwa' ? 2 : 1)
          .join('/')}`
      : id
  }
  const cost = new Map<string, number>()
  for (const meta of Object.values(nodeMetas)) {
    for (const [chunk, part] of Object.entries(meta.moduleParts)) {
      const key = `${chunk}  ${owner(meta.id)}`
      cost.set(key, (cost.get(key) ?? 0) + (nodeParts[part]?.gzipLength ?? 0))
    }
  }
  console.log('\npackage cost by chunk (≥ 1 KiB, gzipped per module)')
  for (const [key, size] of [...cost].sort((a, b) => b[1] - a[1]).filter(([, size]) => size >= 1024))
    console.log(`  ${kib(size).padStart(10)}  ${key}`)
}
