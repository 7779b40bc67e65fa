// The scripted model behind @mgp in windows/mcpl-chat.mjs: each task of the chat, the tool it finds
// by a query and calls, and the answer it gives; a server's inference request and a message in the
// room get fixed answers. What the model saw is kept in \`seen\` for the scenario to check.
/** What each request of the chat asks for: a tool found by a query, called with these arguments. */
export const PLANS = [
  {
    task: 'Ask for access to src/notes.md.',
    query: 'request access scope',
    tool: 'mcpl_request_access',
    args: { path: 'src/notes.md', reason: 'to annotate\u202e it' },
    answer: 'The server asked; you decided.',
  },
  {
    task: 'Remember that the build uses pnpm.',
    query: 'remember a fact notebook',
    tool: 'mcpl_remember',
    args: { fact: 'the build uses pnpm' },
    answer: 'I wrote it into the notebook.',
  },
  { task: 'How do we build?', answer: 'You build with pnpm.' },
  {
    task: 'Summarize the notebook.',
    query: 'summarize the notebook with the model',
    tool: 'mcpl_summarize_notebook',
    args: {},
    answer: 'Here is the summary.',
  },
  {
    task: 'Summarize the other notebook.',
    query: 'summarize the notebook with the model',
    tool: 'notes_summarize_notebook',
    args: {},
    answer: 'No summary this time.',
  },
  {
    task: 'Let Ada say hello in the room.',
    query: 'someone says something in a chat room',
    tool: 'mcpl_room_say',
    args: { text: 'Hello from Ada', author: 'Ada' },
    answer: 'Ada said hello.',
  },
  {
    task: 'Ask for access to .env too.',
    query: 'request access scope',
    tool: 'mcpl_request_access',
    args: { path: '.env' },
    answer: 'The server asked again.',
  },
  {
    task: 'Ask for access to docs/guide.md.',
    query: 'request access scope',
    tool: 'mcpl_request_access',
    args: { path: 'docs/guide.md' },
    answer: 'The server asked a third time.',
  },
];

export const CHANNEL_REPLY = 'Hello Ada, @mgp here.';
export const SUMMARY = 'The build uses pnpm.';

export function scriptedTurn(seen) {
  return (parsed) => {
    const messages = parsed.messages ?? [];
    const taskAt = messages.findLastIndex((m) => m.role === 'user');
    const task = String(messages[taskAt]?.content ?? '');
    const plan = PLANS.find((p) => p.task === task);
    if (task.startsWith('[message in channel room:general of mcpl from Ada'))
      return { content: CHANNEL_REPLY };
    // A server's inference/request (MCPL §11), sent on by the editor to this model.
    if (task.startsWith('Summarize these facts')) {
      seen.inferences.push(task);
      return { content: SUMMARY };
    }
    if (!plan) return { content: 'MCPL' };
    seen.systemPrompts.push(String(messages[0]?.content ?? ''));
    for (const m of messages)
      if (m.role === 'assistant') seen.answersInHistory.add(String(m.content));
    const results = messages.slice(taskAt + 1).filter((m) => m.role === 'tool');
    const offered = (parsed.tools ?? []).map((t) => t.function.name);
    if (plan.tool && results.length === 0)
      return { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: plan.query } }] };
    if (plan.tool && results.length === 1 && offered.includes(plan.tool))
      return { tool_calls: [{ name: plan.tool, arguments: plan.args }] };
    seen.results.push(results.map((r) => String(r.content)).join('\n'));
    return { content: plan.answer };
  };
}
