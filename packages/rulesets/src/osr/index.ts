// The osr ruleset; public API.
export {};
