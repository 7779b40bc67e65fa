import { inClauseWith, type Rewrite } from './rewrite';

/** Files in their users' words: the top of an export, the locations one may open, a fresh document saved at a path. */
export const FILE_IDIOMS: readonly Rewrite[] = [
  // `the first twenty rows`, `just the top of that export`: the head of a file.
  [
    /\b(?:first|top)\s+(?:[\w-]+\s+)?(?:rows|lines)\b|\bthe\s+(?:top|start|beginning)\s+of\s+(?:the|that|this|my|our)\s+(?:file|export|csv|log|dump|sheet|spreadsheet|report|roster|list)\b/gi,
    ' head first lines read file ',
  ],
  // `which locations you're permitted to get into`: the allowed directories.
  [
    /\b(?:permitted|allowed|authori[sz]ed|cleared)\s+to\s+(?:get\s+into|go\s+into|get\s+at|access|reach|touch|read|open|see|look\s+(?:at|in|into))\b|\bable\s+to\s+(?:get\s+into|go\s+into|get\s+at|access|reach)\b|\b(?:been|was|were)\s+granted\b/gi,
    ' allowed access directories ',
  ],
  // `save this as a fresh document at /events/run_of_show.md`: a file written.
  [
    /\b(?:as|at|into)\s+(?:a\s+)?(?:fresh|new|brand[- ]new|separate)\s+(?:document|doc|file|note)\b/gi,
    ' write new file ',
  ],
  // `see both files at the same time`: several at once.
  [/\b(?:in|at)\s+(?:the\s+)?same\s+time\b/gi, ' multiple simultaneously '],
  // `when the photo was created, without opening it`: its metadata.
  inClauseWith(
    /\bwhen\b/i,
    /\b(?:was|were|got)\s+(?:created|made|taken|written|saved)\b/gi,
    ' creation timestamp ',
  ),
  [/\bwithout\s+opening\b/gi, ' metadata info '],
  // `start a fresh note called notes.txt`: a file written.
  [
    /\b(?:start|begin)\s+(?:a\s+)?(?:fresh|new|blank|empty)\s+(?:note|file|document|doc|text\s+file)\b/gi,
    ' write new file ',
  ],
  // `what's on this picture`: an image read.
  [
    /\bwhat(?:'s|\s+is)\s+(?:on|in)\s+(?:this|that|the)\s+(?:picture|photo|image|scan|screenshot)\b/gi,
    ' read media image view ',
  ],
];
