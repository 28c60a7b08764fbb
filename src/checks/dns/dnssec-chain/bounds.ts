/** The contract's bounds of one chain (docs/contract/dnssec-chain.md). */
export const MAX_CHAIN_QUESTIONS = 60;
export const MAX_CHAIN_MS = 20_000;
