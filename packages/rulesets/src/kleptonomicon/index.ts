// The kleptonomicon ruleset; public API.
export {};
