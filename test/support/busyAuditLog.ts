/**
 * One line of a busy audit log, as the Audit Trail reads it: three records per trace, six servers,
 * eight tools, twelve agents. The index size test and bench/audit-trail-views.mjs read the same log.
 */
const SERVERS = ['example', 'everything', 'files', 'git', 'browser', 'tickets'];
const TOOLS = [
  'delete_notes',
  'write_note',
  'list_notes',
  'echo',
  'read_file',
  'commit',
  'fetch_page',
  'create_issue',
];

export function busyAuditLine(seq: number): string {
  const trace = Math.floor((seq - 1) / 3);
  return JSON.stringify({
    seq,
    timestamp: new Date(Date.UTC(2026, 0, 1) + seq * 250).toISOString(),
    trace_id: `${trace.toString(16).padStart(8, '0')}-7d3c-4f1e-9a6b-${(trace * 7919).toString(16).padStart(12, '0')}`,
    event_type: seq % 3 === 1 ? 'PERMISSION_GRANTED' : 'TOOL_EXECUTED',
    actor: { type: 'agent', id: `agent.worker-${seq % 12}` },
    target: { server_id: SERVERS[trace % SERVERS.length], tool_name: TOOLS[trace % TOOLS.length] },
    result: seq % 3 === 1 ? 'GRANTED' : seq % 17 === 0 ? 'FAILURE' : 'SUCCESS',
    details: { duration_ms: seq % 500, arguments: { path: `/srv/project/file-${seq}.txt` } },
    prev_hash: 'f'.repeat(64),
    hash: 'e'.repeat(64),
  });
}
