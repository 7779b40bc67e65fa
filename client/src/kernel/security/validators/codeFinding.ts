/** One thing the code safety checks found in a piece of code, with the §7.4 violation text. */
export interface CodeFinding {
  rule:
    | 'blocked_import'
    | 'import_not_allowed'
    | 'dynamic_import'
    | 'blocked_pattern'
    | 'write_operation'
    | 'size_limit'
    | 'unsupported_language'
    | 'unparsable'
    | 'name_not_allowed'
    | 'blocked_attribute'
    | 'computed_access';
  /** The §7.4 violation text: "Blocked import: 'subprocess'". */
  text: string;
  index: number;
}
