/**
 * Entry of `dist/tokenizer.js`: the cl100k_base tokenizer (npm `gpt-tokenizer`, about 1 MB of BPE
 * ranks) as a bundle of its own, so that the extension and the CLI bundles share one copy and load it
 * only when a token count is first needed (see tokens.ts).
 */
export { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
