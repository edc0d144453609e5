// The teams ruleset; public API.
export {};
