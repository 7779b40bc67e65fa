import { inClauseWith, type Rewrite } from './rewrite';

/** The work around a code host in its users' words: open PRs, a branch behind main, the checks of a PR. */
export const REPO_IDIOMS: readonly Rewrite[] = [
  // `open prs targeting main`: the open ones listed (to open one is to create it, see OPEN_TO_CREATE).
  [
    /(?<!\b(?:list|show|the|all|any|my|our|your|of)\s+)\bopen\s+(?=(?:prs|pull\s+requests|issues|mrs|merge\s+requests|tickets|bugs)\b)/gi,
    ' list open ',
  ],
  // `PR 31 is behind main, catch it up`: its branch updated from the base.
  [
    /\b(?:is|are|was|fell|falling|fallen|got|gotten)\s+(?:\w+\s+)?behind\s+(?:main|master|develop|trunk|upstream|(?:the\s+)?base(?:\s+branch)?)\b|\bcatch\s+(?:it|this|that|them|the\s+branch|the\s+pr)\s+up\b/gi,
    ' update branch latest base ',
  ],
  // `the automated checks on PR #23`, `its pass/fail state`: the status of its checks.
  [
    /\b(?:automated\s+|automatic\s+|ci\s+|status\s+)?(?:checks|tests)\s+(?:on|for|of)\s+(?:the\s+|that\s+|this\s+)?(?:pr|pull\s+request|mr|merge\s+request|commit|change|proposal)\b|\bpass\/fail\b|\b(?:are|is)\s+(?:they|it)\s+(?:passing|green|failing|red)\b/gi,
    ' $& status checks ci ',
  ],
  // `microsoft/vscode#3021`: an issue or a pull request of that repository.
  [/\b[\w.-]+\/[\w.-]+#\d+\b/g, ' $& issue pull request '],
  // `the lowdown on pull request 58`: its details.
  [
    /\b(?:the\s+)?(?:lowdown|low-down|rundown|run-down|specifics|particulars|full\s+story)\s+on\b/gi,
    ' get details of ',
  ],
  // `oldest first`: a list in an order.
  [
    /\b(?:oldest|newest|latest|most\s+recent|least\s+recent|earliest|soonest|highest|lowest)\s+(?:[\w-]+\s+){0,2}?first\b/gi,
    ' list sort ',
  ],
  // `everything still open that's tagged needs-repro`: the open issues with a label.
  [
    /\b(?:everything|anything|all|whatever(?:'s)?)\s+(?:that's\s+|that\s+is\s+)?(?:still\s+)?open\b(?=[^.;]*\b(?:tagged|labell?ed)\b)/gi,
    ' list open issues labels ',
  ],
  // `her proposal #45`, `change #45`: a pull request.
  [
    /\b(?:proposal|proposed\s+change|change(?:\s+request)?|changeset|contribution|submission)\s+(?=#\d)/gi,
    ' pull request ',
  ],
  // `accept change request #3`: a merge.
  [/\baccept\b(?=[^.;]*\b(?:pull\s+request|pr|merge\s+request|mr)\b)/gi, ' merge '],
  // `reported problems … still outstanding`: the open issues.
  [/\breported\s+(?:problems|bugs|issues|defects)\b/gi, ' issues '],
  [/\b(?:still\s+)?outstanding\b/gi, ' open '],
  [
    /\b(?:carrying|bearing|having|with)\s+(?:the\s+)?(?:text|[\w-]+)\s+(?:tag|label)\b/gi,
    ' labels ',
  ],
  // `thank whoever reported #312 and tell them…`: a comment on it.
  [
    /\b(?:thank|tell|answer|update|reply\s+to)\s+(?:whoever|the\s+(?:person|people|folks?)\s+who|the\s+(?:reporter|author|submitter))(?:\s+(?:reported|opened|filed|raised|wrote|submitted))?\b/gi,
    ' add comment reply on issue ',
  ],
  // `propose bringing them into main`: a pull request.
  [
    /\b(?:propose|suggest|request)\s+(?:bringing|merging|pulling|folding|moving|getting)\b|\b(?:propose|suggest|request)\s+that\b(?=[^.;]*\bbe\s+(?:taken|brought|merged|pulled|folded|moved)\s+into\b)/gi,
    ' create pull request merge ',
  ],
  // `a separate working copy called summer-menu from main`: a branch.
  [
    /\b(?:separate|new|own|parallel)\s+(?:working\s+)?(?:copy|version|line\s+of\s+work)\b(?=[^.;]*\b(?:from|off(?:\s+of)?)\s+(?:main|master|develop|trunk)\b)/gi,
    ' create branch ',
  ],
  // `which projects have the phrase "…" inside a LICENSE file`: code searched.
  [/\bthe\s+(?:phrase|string|snippet|line)\s+(?=text\b)/gi, ' search code '],
  // `report it to its developers`: an issue.
  [
    /\breport\s+(?:it|this|that|the\s+(?:bug|problem|issue|error))\s+to\s+(?:its|the|their)\s+(?:developers|devs|maintainers|authors|team|makers|creators)\b/gi,
    ' create issue ',
  ],
  // `report that the calendar shows March` in a repository: an issue.
  inClauseWith(
    /\b(?:github|gitlab|repo|repository)\b|(?<![\w/])[\w.-]+\/[\w.-]+(?![\w/])/i,
    /\breport\s+that\b/gi,
    ' create issue ',
  ),
  // `put maria-k down as the person responsible`: an assignee.
  [
    /\b(?:put|set|mark|list)\s+\S+\s+(?:down\s+)?as\s+(?:the\s+)?(?:person\s+responsible|owner|assignee|responsible)\b|\bperson\s+responsible\b/gi,
    ' assign update issue ',
  ],
  // `pasted "Millbrook" into source code anywhere on GitHub`: code searched.
  [
    /\b(?:into|in)\s+(?:any\s+)?(?:source\s+)?code\b(?=[^.;?]*\b(?:github|gitlab|anywhere)\b)/gi,
    ' search code ',
  ],
  // `what has been saved to the main line lately`, `who changed what`: the commits.
  [
    /\b(?:saved|committed|pushed|added)\s+to\s+(?:the\s+)?(?:main\s+line|mainline|main|master|trunk)\b|\bwho\s+changed\s+what\b/gi,
    ' commits history ',
  ],
];
