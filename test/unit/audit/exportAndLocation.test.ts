import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { csvField, csvHeader, exportRecords } from '../../../client/src/kernel/audit/export';
import { auditDirectory, stateDirectory } from '../../../client/src/kernel/audit/location';
import { readRecords } from '../../../client/src/kernel/audit/reader';
import { checkLine } from '../../../client/src/kernel/audit/chain';
import { fileLines, sampleEvent, tempDir } from './support';

async function exported(dir: string, format: 'csv' | 'jsonl', filter = {}): Promise<string> {
  let text = '';
  await exportRecords(readRecords(dir, filter), format, (chunk) => void (text += chunk));
  return text;
}

describe('audit export and location', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('quotes CSV fields as RFC 4180 says', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r'), '"cr\r"');
    assert.equal(csvField(''), '');
  });

  it('keeps spreadsheets from reading a field as a formula (CSV injection)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      assert.ok(csvField(`${start}1+1`).replace(/^"/, '').startsWith("'"), JSON.stringify(start));
    assert.equal(csvField('=cmd|"/c calc"!A1'), '"\'=cmd|""/c calc""!A1"');
    assert.equal(csvField('2026-01-01T00:00:00.000Z'), '2026-01-01T00:00:00.000Z');
  });

  it('exports CSV with the header, CRLF line ends, and details as JSON', async () => {
    const log = await AuditLog.open({ directory: dir });
    await log.append({
      ...sampleEvent(1),
      trace_id: 't-1',
      timestamp: '2026-02-27T12:00:00.000Z',
      details: { note: 'a "quoted", multi\nline note' },
    });
    await log.append({
      event_type: 'SERVER_CONNECTED',
      actor: { type: 'kernel', id: 'kernel' },
      result: 'SUCCESS',
      trace_id: 't-2',
      timestamp: '2026-02-27T12:00:01.000Z',
    });
    await log.close();
    const text = await exported(dir, 'csv');
    assert.equal(
      csvHeader(),
      'seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details',
    );
    assert.equal(
      text,
      'seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details\r\n' +
        '1,2026-02-27T12:00:00.000Z,TOOL_EXECUTED,agent,agent.1,server.1,read_file,SUCCESS,t-1,"{""note"":""a \\""quoted\\"", multi\\nline note""}"\r\n' +
        '2,2026-02-27T12:00:01.000Z,SERVER_CONNECTED,kernel,kernel,,,SUCCESS,t-2,{}\r\n',
    );
  });

  it('exports JSONL lines identical to the log, so each still verifies; filters apply', async () => {
    const log = await AuditLog.open({ directory: dir });
    for (let i = 1; i <= 8; i++) await log.append(sampleEvent(i));
    await log.close();
    const all = await exported(dir, 'jsonl');
    assert.equal(all, `${fileLines(join(dir, 'audit-000001.jsonl')).join('\n')}\n`);
    const blocked = (await exported(dir, 'jsonl', { types: ['TOOL_BLOCKED'] })).trim().split('\n');
    assert.equal(blocked.length, 1);
    assert.equal(checkLine(blocked[0]).ok, true);
  });

  it('puts the log under $XDG_STATE_HOME/mgp/<folder>-<hash>/audit, or ~/.local/state without it', () => {
    const folder = '/home/ana/src/My Project';
    const hash = createHash('sha256').update(folder).digest('hex').slice(0, 12);
    assert.equal(
      auditDirectory({
        workspaceFolder: folder,
        env: { XDG_STATE_HOME: '/var/state' },
        home: '/home/ana',
      }),
      `/var/state/mgp/My_Project-${hash}/audit`,
    );
    assert.equal(
      stateDirectory({ workspaceFolder: folder, env: {}, home: '/home/ana' }),
      `/home/ana/.local/state/mgp/My_Project-${hash}`,
    );
    assert.equal(
      auditDirectory({ env: { XDG_STATE_HOME: 'relative/ignored' }, home: '/home/ana' }),
      '/home/ana/.local/state/mgp/global/audit',
    );
    assert.notEqual(
      auditDirectory({ workspaceFolder: '/a/app', env: {}, home: '/h' }),
      auditDirectory({ workspaceFolder: '/b/app', env: {}, home: '/h' }),
    );
    assert.equal(
      auditDirectory({ workspaceFolder: '/a/app/', env: {}, home: '/h' }),
      auditDirectory({ workspaceFolder: '/a/app', env: {}, home: '/h' }),
    );
  });
});
