/** Every tool of the example server, in the order tools/list shows them: the plain MCP ones first. */
import type { AuditLog } from '../audit';
import type { Callbacks } from '../callbacks';
import type { Events } from '../events';
import type { Session } from '../session';
import type { ToolDef } from '../tooling';
import { askUserTool } from './askUser';
import { add, echo } from './basic';
import { runCode } from './code';
import { failureTools } from './failures';
import { NotesStore, notesTools } from './notes';
import { runCommand } from './shell';
import { signalTools } from './signals';
import { streamTools } from './streams';

export interface ToolDeps {
  session: Session;
  callbacks: Callbacks;
  events: Events;
  audit: AuditLog;
}

export function allTools({ session, callbacks, events, audit }: ToolDeps): ToolDef[] {
  const [writeNote, listNotes, ...moreNotes] = notesTools(new NotesStore());
  return [
    echo,
    add,
    writeNote,
    listNotes,
    ...moreNotes,
    runCommand,
    runCode,
    ...streamTools(session),
    askUserTool(session, callbacks, events),
    ...signalTools(session, events, audit),
    ...failureTools(),
  ];
}
