import { inClauseWith, type Rewrite } from './rewrite';

/** A page that is open, in the words of someone at the screen: where the pointer goes, what is dragged, where to go back to. */
export const BROWSER_IDIOMS: readonly Rewrite[] = [
  // `move the pointer over the language flag`: a hover, not a move.
  [
    /\b(?:move|put|place|rest|hold|park|position)\s+(?:the\s+|my\s+|your\s+)?(?:mouse|pointer|cursor)\s+(?:over|on|onto|above|across)\b/gi,
    ' hover ',
  ],
  [/\bdrops?\s+down\b/gi, ' dropdown '],
  // `put these three photos onto the upload area`: files dropped on the page.
  inClauseWith(
    /\bfiles?\b/i,
    /\b(?:put|drop|place|drag|move)\b(?=[^.;]*\bonto\b)/gi,
    ' drop files onto ',
  ),
  // `pull the Table 7 icon over onto the Stage left zone`: a drag and drop.
  inClauseWith(
    /\bonto\b/i,
    /\b(?:pull|slide|drag|carry|shove)\b(?=[^.;]*\bonto\b)/gi,
    ' drag drop ',
  ),
  // `return to the search results I was just on`: the browser's history.
  [
    /\b(?:return|go|get|head)\s+(?:back\s+)?to\b(?=[^.;]*\b(?:(?:i|we)\s+(?:was|were)\s+(?:just\s+|previously\s+|last\s+)?(?:on|at|viewing|looking\s+at|reading)|(?:previous|prior|last)\s+page)\b)/gi,
    ' navigate back previous page ',
  ],
  // `a readout of what's on the screen`: the structure of the page.
  [
    /\bwhat(?:'s|\s+is)\s+(?:showing\s+|displayed\s+)?on\s+(?:the\s+|my\s+|this\s+|that\s+)?(?:web\s*)?(?:screen|page)\b/gi,
    ' page snapshot elements ',
  ],
  // `a box popped up asking…, say no`: a dialog of the page.
  [
    /\b(?:box|window|dialog|prompt|message|alert|warning)\s+(?:just\s+)?(?:popped|pops|came|comes|showed|shows)\s+up\b|\bsay\s+(?:no|yes|ok|okay)\b/gi,
    ' dialog popup handle ',
  ],
  // `the file picker is open, give it floorplan.pdf`: a file uploaded.
  [
    /\b(?:file\s+(?:picker|chooser|dialog|selector|browser)|upload\s+(?:box|field|button|window))\s+(?:is\s+)?(?:open|showing|up)\b/gi,
    ' upload file picker ',
  ],
  // `open the baggage rules alongside it`: another tab.
  [
    /\bopen\b(?=[^.;]*\b(?:alongside|in\s+(?:another|a\s+(?:new|second|separate|different|other))\s+(?:tab|window))\b)/gi,
    ' new tab open ',
  ],
  // `how the open page is laid out`: its structure.
  [
    /\b(?:page|screen|site|form)\s+is\s+(?:laid\s+out|structured|organi[sz]ed|arranged)\b|\blaid\s+out\b/gi,
    ' page structure snapshot ',
  ],
  // `the errors and warnings it logged behind the scenes`: the console.
  [
    /\b(?:errors?\s+and\s+warnings|warnings\s+and\s+errors)\b(?=[^.;]*\blogged\b)|\blogged\s+behind\s+the\s+scenes\b/gi,
    ' console messages ',
  ],
  // `a text outline of its headings, buttons and links`: the page's elements.
  [
    /\b(?:headings|buttons|links|fields|controls)(?:\s*,\s*|\s+and\s+)(?:headings|buttons|links|fields|controls|inputs)\b/gi,
    ' page snapshot elements ',
  ],
  [/\b(?:rather\s+than|instead\s+of)\s+(?:a\s+)?(?:picture|screenshot|image|photo)\b/gi, ' '],
  // `flip the page into dark mode`: an emulated color scheme.
  [/\b(?:into|to|in)\s+(?:dark|light)\s+mode\b/gi, ' emulate media color scheme '],
  // `the errors the page logged`, `Uncaught TypeError`: the console.
  [
    /\b(?:the\s+)?(?:page|site|app|browser|tab)\s+(?:logged|printed|threw)\b|\buncaught\s+\w*error\b/gi,
    ' console messages errors ',
  ],
];
