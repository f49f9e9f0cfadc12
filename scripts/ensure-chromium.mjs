#!/usr/bin/env node
// Finds Debian's Chromium for Playwright (never `playwright install`: the network here is closed).
// Missing and root: installs Debian's package. Missing and not root: says exactly what to run.
import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)

function findChromium() {
  for (const path of CANDIDATES) {
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // try the next one
    }
  }
  return undefined
}

function version(path) {
  try {
    return execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return 'version unknown'
  }
}

let found = findChromium()
if (!found) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (!isRoot) {
    console.error("Chromium is missing. Install Debian's package, then run the tests again:")
    console.error('  sudo apt-get update && sudo apt-get install -y chromium')
    process.exit(1)
  }
  console.log("Chromium is missing; installing Debian's package (apt-get install -y chromium)...")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  let result = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env })
  if (result.status !== 0) {
    // A fresh image has no package lists yet.
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    result = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env })
  }
  found = findChromium()
  if (result.status !== 0 || !found) {
    console.error('Installing Chromium failed. Run this, then the tests again:')
    console.error('  apt-get update && apt-get install -y chromium')
    process.exit(1)
  }
}
console.log(`Chromium: ${found} (${version(found)})`)
