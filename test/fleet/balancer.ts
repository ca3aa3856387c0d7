// Debian's haproxy in front of the gateways, as an operator would run it: round robin, `GET /readyz`
// checked every `checkMs`, keep-alive connections to the servers reused for any client, and no retry
// or redispatch, so a request the balancer sends to a closing instance fails where a client sees it.
import { connect } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { type Child, startChild } from './children.js'
import { eventually } from '../helpers/eventually.js'

export const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy', 'haproxy']

export interface BalancerOptions {
  port: number
  servers: Array<{ name: string; port: number }>
  /** Health check interval; a server is out after `fall` failed checks and back after `rise` good ones. */
  checkMs: number
  fall: number
  rise: number
}

export function haproxyConfig(dir: string, o: BalancerOptions): string {
  return `global
  log stdout format raw local0 info
  stats socket ${join(dir, 'admin.sock')} mode 600 level admin
  maxconn 4096

defaults
  mode http
  log global
  option httplog
  option dontlognull
  retries 0
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 30s
  timeout check 1s

frontend public
  bind 127.0.0.1:${o.port}
  option forwardfor
  default_backend gateways

backend gateways
  balance roundrobin
  http-reuse always
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  default-server check inter ${o.checkMs}ms fall ${o.fall} rise ${o.rise}
${o.servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port}`).join('\n')}
`
}

export interface Balancer {
  url: string
  child: Child
  /** Each server's check status as haproxy reports it ("UP", "DOWN", "UP 1/2", ...). */
  states(): Promise<Record<string, string>>
  /** Waits (generously) until haproxy reports `server` as exactly `status`. */
  until(server: string, status: 'UP' | 'DOWN', ms?: number): Promise<void>
}

/** One command on the admin socket, its whole answer. */
function admin(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const s = connect(socket, () => s.end(`${command}\n`))
    s.setEncoding('utf8')
    s.on('data', (d: string) => (text += d))
    s.on('end', () => resolve(text))
    s.on('error', reject)
  })
}

export async function startBalancer(t: Test, binary: string, o: BalancerOptions): Promise<Balancer> {
  const dir = await mkdtemp(join(tmpdir(), 'fleet-haproxy-'))
  const config = join(dir, 'haproxy.cfg')
  await writeFile(config, haproxyConfig(dir, o))
  const child = startChild('haproxy', binary, ['-db', '-f', config])
  t.teardown(async () => {
    await child.kill()
    await rm(dir, { recursive: true, force: true })
  })
  const socket = join(dir, 'admin.sock')
  const states = async () => {
    const [header, ...rows] = (await admin(socket, 'show stat')).trim().split('\n')
    const columns = header!.replace(/^# /, '').split(',')
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c))
    const found: Record<string, string> = {}
    for (const row of rows) {
      const cells = row.split(',')
      if (cells[px!] === 'gateways' && cells[sv!] !== 'BACKEND') found[cells[sv!]!] = cells[status!]!
    }
    return found
  }
  await eventually(
    'haproxy to listen',
    () =>
      states().then(
        (s) => Object.keys(s).length === o.servers.length,
        () => child.process.exitCode !== null && Promise.reject(new Error(child.stderr())),
      ),
    20_000,
  )
  return {
    url: `http://127.0.0.1:${o.port}`,
    child,
    states,
    until: (server, status, ms = 30_000) =>
      eventually(
        `haproxy to report ${server} ${status}`,
        async () => (await states())[server] === status,
        ms,
      ),
  }
}
