import { inClauseWith, type Rewrite } from './rewrite';

/** `what fields the tracker has`, `what kind each one is`: a question of a database's schema (in Notion, of its data source). */
const SCHEMA_QUESTION =
  /\b(?:what|which)\s+(?:fields|columns|properties)\b(?=[^.;?]*\b(?:has|have|contains?|holds?|there\s+are|are\s+in)\b)|\bwhat\s+(?:kind|type)\s+(?:each|every)\s+(?:one|field|column|property)\s+is\b/gi;

/** Pages, databases and accounts of a workspace in their users' words: where a block goes, a database's fields, who one is signed in as. */
export const WORKSPACE_IDIOMS: readonly Rewrite[] = [
  // `at the bottom of my grocery page`: blocks appended.
  [/\bat\s+the\s+(?:very\s+)?(?:bottom|end|foot|tail)\s+of\b/gi, ' append end '],
  // `which integration am I authed as`: the account itself.
  [
    /\b(?:am\s+i|are\s+we|i'm|i\s+am|we're|we\s+are|is\s+(?:it|this|that))\s+(?:currently\s+|actually\s+)?(?:authed|authenticated|logged\s+in|signed\s+in|connected|running)\s+as\b/gi,
    ' whoami ',
  ],
  // `what fields the tracker has and what kind each one is`: its schema.
  [
    /[^.;]+/g,
    (clause) =>
      clause.replace(
        SCHEMA_QUESTION,
        /\bnotion\b/i.test(clause) ? ' $& schema data source ' : ' $& schema ',
      ),
  ],
  // `the showings linked through that relation`: a page's relation property, read in full.
  [
    /\b(?:through|via|using|by)\s+(?:that|the|this|its)\s+(?:[\w-]+\s+)?relation(?:\s+property)?\b/gi,
    ' page property relation ',
  ],
  // `add status column to the bug tracker`: a change of the database's schema.
  [
    /\b(?:add|put|insert|stick|include)\s+(?:[\w-]+\s+){1,3}?(?:column|field|property)(?:\s+named)?\s+(?:to|in|on|into)\b(?=[^.;]*\b(?:db|database|tracker|board|data\s+source|notion)\b)/gi,
    ' update data source schema add property ',
  ],
  // `q3 roadmap page where` (a search box): where it is.
  [/\bwhere\s*\??\s*$/gi, ' locate search '],
  // `a new table inside our farm's Notion page`: a database.
  inClauseWith(
    /\bnotion\b/i,
    /\bnew\s+(?:table|database|tracker|db)\b/gi,
    ' new database data source ',
  ),
  // `our sales database has an orders table`: an SQL table.
  [
    /\b(?:database|db)\s+(?:has|with|contains)\s+(?:an?\s+|the\s+)?[\w-]+\s+table\b(?![^.;?]*\bnotion\b)/gi,
    ' sql table database ',
  ],
  // `ready-made page layouts`: templates.
  [
    /\bready[- ]made\s+(?:page\s+)?(?:layouts?|pages?|formats?)\b|\bpage\s+layouts\b/gi,
    ' templates ',
  ],
  // `the amount and status recorded on the Notion page "Invoice 2291"`: the page's properties.
  [
    /\b(?:recorded|stored|listed|entered|filled\s+in)\s+on\s+(?:the\s+)?(?:notion\s+)?page\b/gi,
    ' page properties retrieve ',
  ],
  // `rows in the invoices table`: an SQL table.
  [/\brows\s+(?:in|of|from)\s+the\s+[\w-]+\s+table\b(?![^.;?]*\bnotion\b)/gi, ' sql table rows '],
  // `show only cases marked Awaiting`: a filtered view.
  [
    /\b(?:show|list|give)\s+(?:me\s+)?only\b(?!\s+(?:the\s+)?(?:first|last|top|bottom|head|tail|final)\b)/gi,
    ' list filter query ',
  ],
  // `list the tables in the public schema`, `relation "orders" does not exist`: the SQL database.
  [
    /\b(?:tables|views)\s+in\s+(?:the\s+)?(?:[\w-]+\s+)?schema\b|\bpublic\s+schema\b|\brelation\s+text\s+does\s+not\s+exist\b/gi,
    ' sql tables information schema ',
  ],
  // `GET database 8a9b…`: retrieved.
  [/\bGET\s+(?=(?:database|page|block|user|comment|data\s+source)\b)/g, ' retrieve '],
];
