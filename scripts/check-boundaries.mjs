#!/usr/bin/env node
// Feature boundaries (ARCHITECTURE, STYLE §2): an API feature folder imports no other feature's
// files. What two features need moves down to `api/src/lib/`, and features are composed in
// `api/src/app.ts`. The few imports that are the point of a feature are listed below, each with
// its reason; any other import across features fails `npm run lint` and `npm test`'s static checks.
// Prints each offending import as `file:line: import … (feature → other feature)`.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const featuresDir = path.join(root, 'api/src/features')

/** `from feature` may import `to` (a file inside another feature), and why. */
const ALLOWED = [
  // The admin area writes through the owning features' services (admin/service.ts says so): it
  // is handed them by app.ts and names their types.
  ...['auth/service.ts', 'profile/service.ts', 'bubles/service.ts', 'bubles/invites.ts']
    .concat(['events/service.ts', 'polls/service.ts', 'wall/service.ts', 'reports/service.ts'])
    .map((to) => ({ from: 'admin', to, typeOnly: true })),
  // The avatar upload answers with the profile's message for a bad avatar; the test checks that text.
  { from: 'uploads', to: 'profile/service.ts', typeOnly: false, testOnly: true },
]

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.[^'"]+)['"]/gm

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return filesUnder(full)
    return /\.(ts|tsx)$/.test(name) ? [full] : []
  })
}

const problems = []
for (const feature of readdirSync(featuresDir)) {
  const dir = path.join(featuresDir, feature)
  if (!statSync(dir).isDirectory()) continue
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(IMPORT)) {
      const target = path.relative(featuresDir, path.resolve(path.dirname(file), match[3]))
      if (target.startsWith('..')) continue
      const [other, ...rest] = target.split(path.sep)
      if (other === feature) continue
      const to = [other, ...rest].join('/')
      const typeOnly = match[2] !== undefined
      const isTest = /\.test\.tsx?$/.test(file)
      const allowed = ALLOWED.some(
        (rule) => rule.from === feature && rule.to === to && (!rule.typeOnly || typeOnly) && (!rule.testOnly || isTest),
      )
      if (allowed) continue
      const line = text.slice(0, match.index).split('\n').length + (match[0].match(/^\s*/)[0].split('\n').length - 1)
      problems.push(`${path.relative(root, file)}:${line}: ${match[0].trim()} (${feature} → ${other})`)
    }
  }
}

if (problems.length > 0) {
  console.error(`An API feature imports another feature's files (move what both need to api/src/lib/):`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log('Feature boundaries: no API feature imports another.')
